import { mountIsland } from "../../components/mount.jsx";
import MyCoursesIsland from "./MyCoursesIsland.jsx";

mountIsland("my-courses", MyCoursesIsland);
