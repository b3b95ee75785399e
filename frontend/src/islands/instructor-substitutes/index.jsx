/* An instructor's substitutes, on their classes page (docs/decisions.md 52). */
import { mountIsland } from "../../components/mount.jsx";
import { Substitutes } from "./Substitutes.jsx";

mountIsland("instructor-substitutes", Substitutes);
