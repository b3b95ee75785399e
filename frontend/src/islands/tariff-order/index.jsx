import { mountIsland } from "../../components/mount.jsx";
import TariffOrder from "./TariffOrder.jsx";

mountIsland("tariff-order", TariffOrder);
