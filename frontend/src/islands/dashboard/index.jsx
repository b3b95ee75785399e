import { mountIsland } from "../../components/mount.jsx";
import Dashboard, { openingReady } from "./Dashboard.jsx";

openingReady.then(() => mountIsland("dashboard", Dashboard));
