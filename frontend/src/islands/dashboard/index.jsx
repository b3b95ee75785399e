import { mountIsland } from "../../components/mount.jsx";
import Dashboard from "./Dashboard.jsx";

mountIsland("dashboard", Dashboard);
