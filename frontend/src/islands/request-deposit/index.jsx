import { mountIsland } from "../../components/mount.jsx";
import RequestDeposit from "./RequestDeposit.jsx";

mountIsland("request-deposit", RequestDeposit);
