/* An instructor's attendance sheet for one of their classes (docs/decisions.md 38), the dashboard's sheet on a page
   of its own. */
import { mountIsland } from "../../components/mount.jsx";
import { AttendanceSheet } from "../dashboard/sections/Attendance.jsx";

function InstructorAttendance({ sessionId }) {
  return <AttendanceSheet sessionId={sessionId} />;
}

mountIsland("instructor-attendance", InstructorAttendance);
