import { mountIsland } from "../../components/mount.jsx";
import MessagesApp from "./MessagesApp.jsx";

mountIsland("messages", MessagesApp);
