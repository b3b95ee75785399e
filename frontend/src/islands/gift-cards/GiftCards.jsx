/* /cartes-cadeaux: buy a gift card (an amount or a tariff, the recipient, a message, the send date) with the shared
   payment widget, check a card's balance by its code, and, for a member, their own cards. */
import { Suspense, lazy, useEffect, useMemo, useState } from "react";
import { api, errorMessage } from "../../components/api.js";
import { euros, formatDate, toAmount } from "../../components/format.js";
import * as M from "./messages.js";
import "./gift-cards.css";

// Loaded once the page shows: the balance check and the list need none of it.
const PaymentWidget = lazy(() => import(/* webpackChunkName: "payment-widget" */ "../../components/PaymentWidget.jsx"));

const SEND_CHOICES = [
  ["today", M.MSG_TODAY],
  ["in_3_days", M.MSG_IN_3_DAYS],
  ["date", M.MSG_ON_DATE],
];
const PRESETS = ["30", "50", "80", "100"];

function validAmount(value, min, max) {
  const amount = Number(String(value).replace(",", "."));
  return Number.isFinite(amount) && amount >= Number(min) && amount <= Number(max) && /^\d+([.,]\d{1,2})?$/.test(String(value).trim());
}

export function BuyForm({ user, paymentConfig, tariffs = [], minAmount = "20.00", maxAmount = "500.00", today, lastSendDay, onPaid }) {
  const [what, setWhat] = useState("amount");
  const [amount, setAmount] = useState("50");
  const [tariffId, setTariffId] = useState(tariffs[0]?.id ?? "");
  const [recipientName, setRecipientName] = useState("");
  const [recipientEmail, setRecipientEmail] = useState("");
  const [message, setMessage] = useState("");
  const [send, setSend] = useState("today");
  const [sendOn, setSendOn] = useState("");
  const tariff = tariffs.find((t) => String(t.id) === String(tariffId));
  const amountOk = what === "tariff" ? Boolean(tariff) : validAmount(amount, minAmount, maxAmount);
  const dateOk = send !== "date" || Boolean(sendOn);
  const total = what === "tariff" ? tariff?.price || "0" : String(amount).replace(",", ".");
  const order = useMemo(
    () => ({
      kind: "gift_card",
      body: {
        ...(what === "tariff" ? { tariff_id: Number(tariffId) } : {}),
        recipient_name: recipientName,
        ...(recipientEmail.trim() ? { recipient_email: recipientEmail.trim() } : {}),
        message,
        send,
        ...(send === "date" ? { send_on: sendOn } : {}),
      },
    }),
    [what, tariffId, recipientName, recipientEmail, message, send, sendOn],
  );
  const details = useMemo(() => ({ title: "Carte cadeau", type: "CARTE_CADEAU", message: "" }), []);
  return (
    <div className="form gift-buy">
      <fieldset>
        <legend>{M.MSG_WHAT}</legend>
        <div className="gift-choice" role="radiogroup" aria-label={M.MSG_WHAT}>
          {[
            ["amount", M.MSG_AN_AMOUNT],
            ["tariff", M.MSG_A_TARIFF],
          ].map(([key, label]) => (
            <label key={key} className="field-check">
              <input type="radio" name="gift-what" value={key} checked={what === key} onChange={() => setWhat(key)} disabled={key === "tariff" && !tariffs.length} />
              {label}
            </label>
          ))}
        </div>
        {what === "amount" ? (
          <div className="field">
            <label htmlFor="gift-amount">{M.MSG_AMOUNT_LABEL}</label>
            <div className="gift-presets">
              {PRESETS.map((value) => (
                <button key={value} type="button" className="button button-small button-secondary" aria-pressed={amount === value} onClick={() => setAmount(value)}>
                  {euros(value)}
                </button>
              ))}
            </div>
            <input
              id="gift-amount"
              inputMode="decimal"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              aria-invalid={!amountOk}
              aria-describedby={amountOk ? undefined : "gift-amount-error"}
            />
            {!amountOk && (
              <p id="gift-amount-error" className="field-error">
                {M.MSG_AMOUNT_RANGE}
              </p>
            )}
          </div>
        ) : (
          <div className="field">
            <label htmlFor="gift-tariff">{M.MSG_TARIFF_LABEL}</label>
            <select id="gift-tariff" value={tariffId} onChange={(event) => setTariffId(event.target.value)}>
              {tariffs.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title} – {euros(t.price)}
                </option>
              ))}
            </select>
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend>Pour qui ?</legend>
        <div className="field">
          <label htmlFor="gift-recipient-name">{M.MSG_RECIPIENT_NAME}</label>
          <input id="gift-recipient-name" maxLength={150} value={recipientName} onChange={(event) => setRecipientName(event.target.value)} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="gift-recipient-email">{M.MSG_RECIPIENT_EMAIL}</label>
          <input id="gift-recipient-email" type="email" maxLength={254} value={recipientEmail} onChange={(event) => setRecipientEmail(event.target.value)} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="gift-message">{M.MSG_MESSAGE}</label>
          <textarea id="gift-message" maxLength={500} value={message} onChange={(event) => setMessage(event.target.value)} />
        </div>
      </fieldset>
      <fieldset>
        <legend>{M.MSG_WHEN}</legend>
        <div className="gift-choice">
          {SEND_CHOICES.map(([key, label]) => (
            <label key={key} className="field-check">
              <input type="radio" name="gift-send" value={key} checked={send === key} onChange={() => setSend(key)} />
              {label}
            </label>
          ))}
        </div>
        {send === "date" && (
          <div className="field">
            <label htmlFor="gift-send-on">{M.MSG_SEND_DATE}</label>
            <input id="gift-send-on" type="date" min={today} max={lastSendDay} value={sendOn} onChange={(event) => setSendOn(event.target.value)} aria-invalid={!dateOk} />
            {!dateOk && <p className="field-error">{M.MSG_DATE_MISSING}</p>}
          </div>
        )}
      </fieldset>
      <p className="gift-total">
        Total : <strong>{euros(toAmount(total || "0"))}</strong>
      </p>
      <Suspense fallback={<p aria-busy="true">Chargement du paiement…</p>}>
      <PaymentWidget
        order={order}
        context="gift_card"
        config={paymentConfig}
        payer={user}
        details={details}
        totalAmount={toAmount(total || "0")}
        disabled={!amountOk || !dateOk}
        onSuccess={onPaid}
      />
      </Suspense>
    </div>
  );
}

export function BalanceCheck() {
  const [code, setCode] = useState("");
  const [result, setResult] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const check = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    setResult(null);
    try {
      setResult(await api("/api/gift-cards/check", { method: "POST", body: { code } }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form gift-check" onSubmit={check}>
      <div className="field">
        <label htmlFor="gift-code">{M.MSG_CODE_LABEL}</label>
        <input id="gift-code" value={code} onChange={(event) => setCode(event.target.value)} maxLength={40} autoComplete="off" autoCapitalize="characters" required />
      </div>
      <button type="submit" className="button button-secondary" disabled={busy || !code.trim()}>
        {M.MSG_CHECK_BUTTON}
      </button>
      <p role="status" className={error ? "form-error" : "form-success"}>
        {error || (result ? `${result.code} – ${M.balanceText(result, euros, formatDate)}` : "")}
      </p>
    </form>
  );
}

export function MyCards({ refresh }) {
  const [cards, setCards] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    api("/api/gift-cards")
      .then((data) => live && setCards(data))
      .catch((failure) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [refresh]);
  if (error) return <p className="form-error">{error}</p>;
  if (!cards) return null;
  if (!cards.length) return <p>{M.MSG_MINE_NONE}</p>;
  return (
    <ul className="gift-mine">
      {cards.map((card) => (
        <li key={card.code}>
          <strong className="gift-code">{card.code}</strong> – {card.tariff_title || euros(card.initial_amount)}
          {card.bought_by_me && card.recipient_name ? ` (offerte à ${card.recipient_name})` : ""}
          <br />
          {M.balanceText(card, euros, formatDate)}
        </li>
      ))}
    </ul>
  );
}

export default function GiftCards(props) {
  const { user, loginUrl } = props;
  const [paidCount, setPaidCount] = useState(0);
  return (
    <div className="gift-cards">
      <section aria-labelledby="gift-buy-title">
        <h2 id="gift-buy-title">{M.MSG_BUY_TITLE}</h2>
        {user ? (
          <BuyForm {...props} onPaid={() => setPaidCount((n) => n + 1)} />
        ) : (
          <p>
            <a className="button" href={loginUrl}>
              {M.MSG_LOGIN_TO_BUY}
            </a>
          </p>
        )}
      </section>
      {user && (
        <section aria-labelledby="gift-mine-title">
          <h2 id="gift-mine-title">{M.MSG_MINE_TITLE}</h2>
          <MyCards refresh={paidCount} />
        </section>
      )}
      <section aria-labelledby="gift-check-title">
        <h2 id="gift-check-title">{M.MSG_CHECK_TITLE}</h2>
        <BalanceCheck />
      </section>
    </div>
  );
}
