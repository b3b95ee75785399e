import { mountIsland } from "../../components/mount.jsx";
import GiftCards from "./GiftCards.jsx";

mountIsland("gift-cards", GiftCards);
