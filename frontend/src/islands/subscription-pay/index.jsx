import { mountIsland } from "../../components/mount.jsx";
import SubscriptionPay from "./SubscriptionPay.jsx";

mountIsland("subscription-pay", SubscriptionPay);
