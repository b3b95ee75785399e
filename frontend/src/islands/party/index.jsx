import { mountIsland } from "../../components/mount.jsx";
import PartyIsland from "./PartyIsland.jsx";

mountIsland("party", PartyIsland);
