"""The security review's money defects replayed over HTTP: 1 (pay one seat, get more), 2 (charged twice, card + class
card), 3 (passes longer than paid), 7 (a hold that lapses while paid)."""

import threading
import time
from datetime import date

from .harness import (
    HOLD_MINUTES,
    JULIE,
    LUCIE,
    MEMBER,
    SARAH,
    Api,
    Studio,
    approve,
    approved_order,
    buy_tariff,
    capture,
    hold,
    last_mail_id,
    my_passes,
    note,
    open_order,
    parallel,
    report,
    short,
    simulator_order,
    wait_for_mail,
)

# --- defects 1, 2, 3, 7 --------------------------------------------------------------------------------------------


def item1(st: Studio) -> None:
    member = Api(st.base, *MEMBER)
    for more in (5, 8):
        sid = st.new_session()
        r = hold(member, sid, 1)
        res = r.json()
        o = open_order(member, res)
        oid = o.json()["id"]
        approve(member, oid)
        again = hold(member, sid, more)
        cap = capture(member, oid)
        confirmed = [a for a in st.attendees(sid) if a["status"] == "confirmed"]
        seats = sum(a["participants"] for a in confirmed)
        cancel = member.post(f"/api/reservations-courses/{res['id']}/cancel")
        credit = (cancel.json().get("credit_pass") or {}).get("credits_left") if cancel.ok else None
        grew = again.status_code == 201 and again.json().get("participants") == more
        safe = not grew and seats <= 1 and (credit in (None, 1))
        report(
            f"1 pay one seat, get {more}",
            f"hold 1 (201 {res['total_amount']}), order {o.status_code} + approve, re-POST hold participants={more}, "
            f"capture 25.00, cancel",
            f"re-POST {short(again, 110)}; capture {cap.status_code}; confirmed seats {seats}; "
            f"cancel {cancel.status_code} credits back {credit}",
            safe,
            "re-POST refused (409) or the hold keeps 1 seat; capture confirms 1 seat; cancel returns 1 credit",
        )


def item2(st: Studio) -> None:
    lucie = Api(st.base, *LUCIE)
    # (a) two orders on one held reservation, opened at once, then 20 captures at once.
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    opened = parallel(lambda: open_order(lucie, res), [()] * 10)
    ids = sorted({o.json()["id"] for o in opened if o.status_code == 201})
    codes = sorted({o.status_code for o in opened})
    for oid in ids:
        approve(lucie, oid)
    caps = parallel(lambda oid: capture(lucie, oid), [(ids[i % len(ids)],) for i in range(20)])
    rows = [o for o in st.orders(lucie.email) if o["reservation_id"] == res["id"]]
    completed = [o for o in rows if o["status"] == "COMPLETED"]
    kept = [o for o in rows if o["capture_id"] and o["status"] not in ("COMPLETED", "REFUNDED")]
    confirmed = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
    report(
        "2a one seat charged twice (two orders)",
        "10 concurrent create-order on one 1-seat hold, approve each distinct order, 20 concurrent captures",
        f"create codes {codes}, distinct order ids {len(ids)}; capture codes "
        f"{sorted(c.status_code for c in caps)}; orders {[o['status'] for o in rows]}; seats confirmed {confirmed}",
        len(completed) == 1 and not kept and confirmed == 1,
        "one live order per reservation: one COMPLETED payment, every other capture refunded, one seat",
    )
    # Second order opened sequentially after the first (as the defect was first found).
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    first, second = open_order(lucie, res), open_order(lucie, res)
    same = first.json().get("id") == second.json().get("id")
    report(
        "2a' second create-order on the same hold",
        "create-order twice on one hold",
        f"{first.status_code} {first.json().get('id')} / {short(second, 80)} {second.json().get('id', '')}",
        same or second.status_code >= 400,
        "the same order answered again (or refused)",
    )
    # The only way to a second order: approve A, cancel A, open B, approve B (and A again), then 20 captures at
    # once split over A and B.
    sid, res, order_a = approved_order(st, lucie)
    cancel_a = lucie.post("/api/paypal/cancel-order", {"orderId": order_a})
    order_b = open_order(lucie, res).json()["id"]
    approve(lucie, order_b)
    approve_a_again = approve(lucie, order_a)
    barrier = threading.Barrier(20)

    def cap_one(oid):
        barrier.wait()
        return oid, capture(lucie, oid)

    caps = parallel(cap_one, [((order_a, order_b)[i % 2],) for i in range(20)])
    by_order = {
        oid: sorted(r.status_code for o, r in caps if o == oid) for oid in (order_a, order_b) if oid is not None
    }
    rows = {o["order_id"]: o for o in st.orders(lucie.email) if o["reservation_id"] == res["id"]}
    completed = [o for o in rows.values() if o["status"] == "COMPLETED"]
    sims = {oid: simulator_order(oid) or {} for oid in (order_a, order_b)}
    kept = [oid for oid, s in sims.items() if s.get("capture_id") and not s.get("refund_id")]
    confirmed = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
    report(
        "2a'' two orders on one hold (A cancelled, B opened), 20 captures at once",
        "approve A, cancel A, create+approve B, approve A again, 20 concurrent captures (10 A, 10 B)",
        f"cancel A {cancel_a.status_code}, B {'≠' if order_b != order_a else '='} A, approve A again "
        f"{approve_a_again.status_code}; captures A {set(by_order[order_a])} B {set(by_order[order_b])}; "
        f"orders {[(o['status']) for o in rows.values()]}; money captured {len(kept)}; seats {confirmed}",
        len(completed) == 1 and len(kept) == 1 and confirmed == 1,
        "one completed payment (B), A never captured or refunded, one seat",
    )

    # (b) card order approved, then the same hold booked with a class card, then the card order captured.
    card_title = "Carte 10 cours"
    oid_card, cap_card = buy_tariff(lucie, st.tariff(card_title))
    card = next((p for p in my_passes(lucie) if p["title"] == card_title and p["credits_left"]), None)
    if card is None:
        report("2b card + class card", f"buy '{card_title}' by simulator", short(cap_card), None, "a card to test with")
        return
    sid, res, oid = approved_order(st, lucie)
    credits_before = card["credits_left"]
    by_pass = hold(lucie, sid, 1, pass_id=card["id"])
    cap = capture(lucie, oid)
    credits_after = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    paid_by_card = order["status"] == "COMPLETED"
    paid_by_pass = credits_after < credits_before
    report(
        "2b paid by card and by class card",
        "approve card order, POST hold with pass_id (class card), capture the card order",
        f"pass booking {short(by_pass, 120)}; capture {cap.status_code} ({order['status']}); "
        f"credits {credits_before}->{credits_after}",
        not (paid_by_card and paid_by_pass) and (paid_by_card or paid_by_pass),
        "paid once: the pass booking refused while the card order is open (409), or the card capture refunded",
    )
    # (b') the pass booking racing the card capture, 4 rounds.
    outcomes = []
    for _ in range(4):
        sid, res, oid = approved_order(st, lucie)
        before = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
        barrier = threading.Barrier(2)

        def go(kind, oid=oid, sid=sid, barrier=barrier):
            barrier.wait()
            return capture(lucie, oid) if kind == "card" else hold(lucie, sid, 1, pass_id=card["id"])

        cap, by_pass = parallel(go, [("card",), ("pass",)])
        after = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
        status = next(o for o in st.orders(oid) if o["order_id"] == oid)["status"]
        seats = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
        both = status == "COMPLETED" and after < before
        outcomes.append((cap.status_code, by_pass.status_code, status, before - after, seats, both))
    report(
        "2b' pass booking racing the card capture (4 rounds)",
        "capture + POST hold with pass_id at the same instant",
        "; ".join(f"capture {c} pass {p} order {s} credits -{d} seats {n}" for c, p, s, d, n, _ in outcomes),
        not any(o[5] for o in outcomes) and all(o[4] == 1 for o in outcomes),
        "never both a completed card payment and a spent credit; one seat",
    )


def item3(st: Studio) -> None:
    sarah = Api(st.base, *SARAH)
    for title in ("Abonnement annuel illimité", "Abonnement 6 mois illimité"):
        tariff = st.tariff(title)
        before = {p["id"] for p in my_passes(sarah)}
        oid, cap = buy_tariff(sarah, tariff)
        new = [p for p in my_passes(sarah) if p["id"] not in before]
        if not new:
            report(f"3 {title}", "buy once", short(cap), cap.status_code >= 400, "no pass without payment")
            continue
        p = new[0]
        days = (date.fromisoformat(p["expires_on"]) - date.fromisoformat(p["starts_on"])).days + 1
        order = next(o for o in st.orders(oid) if o["order_id"] == oid)
        report(
            f"3 '{title}' ({tariff['price']} {tariff['frequency']}, {tariff['validity']})",
            "create-order quantity 1, simulator approve, capture",
            f"capture {cap.status_code}, paid {order['amount']}, "
            f"pass {p['starts_on']} → {p['expires_on']} ({days} days)",
            days <= 31,
            "one period paid (one month) grants one month",
        )
    # Two months paid give two months, not more.
    tariff = st.tariff("Abonnement annuel illimité")
    before = {p["id"] for p in my_passes(sarah)}
    oid, cap = buy_tariff(sarah, tariff, quantity=2)
    new = [p for p in my_passes(sarah) if p["id"] not in before]
    days = (date.fromisoformat(new[0]["expires_on"]) - date.fromisoformat(new[0]["starts_on"])).days + 1 if new else 0
    report(
        "3 two months of the annual plan",
        "quantity 2 (110.00)",
        f"capture {cap.status_code}, pass of {days} days",
        0 < days <= 62,
        "two months",
    )


def item7_start(st: Studio) -> dict:
    sarah = Api(st.base, *SARAH)
    sid, res, oid = approved_order(st, sarah, seats=1)
    return {"sarah": sarah, "sid": sid, "res": res, "oid": oid, "t0": time.time()}


def item7_finish(st: Studio, ctx: dict) -> None:
    wait = ctx["t0"] + HOLD_MINUTES * 60 + 5 - time.time()
    if wait > 0:
        note(f"item 7: waiting {wait:.0f} s for the 1-minute hold to lapse")
        time.sleep(wait)
    sarah, sid, res, oid = ctx["sarah"], ctx["sid"], ctx["res"], ctx["oid"]
    julie = Api(st.base, *JULIE)
    taken = hold(julie, sid, 1)
    if taken.status_code == 201:
        joid = open_order(julie, taken.json()).json()["id"]
        approve(julie, joid)
        capture(julie, joid)
    mark = last_mail_id()
    cap = capture(sarah, oid)
    cap2 = capture(sarah, oid)
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    sim = simulator_order(oid) or {}
    refund_mail = wait_for_mail(to=SARAH[0], after_id=mark, contains="rembours", seconds=10)
    att = st.attendees(sid)
    sarah_confirmed = any(a["id"] == res["id"] and a["status"] == "confirmed" for a in att)
    cancel = sarah.post(f"/api/reservations-courses/{res['id']}/cancel")
    body = cap.json() if cap.headers.get("content-type", "").startswith("application/json") else {}
    money_kept = sim.get("capture_id") and not sim.get("refund_id") and not sarah_confirmed
    safe = (
        taken.status_code == 201
        and cap.status_code == 409
        and body.get("refunded") is True
        and order["status"] == "REFUNDED"
        and bool(sim.get("refund_id"))
        and not sarah_confirmed
        and not money_kept
        and refund_mail is not None
        and cap2.status_code == 409
    )
    report(
        "7 paid, no seat, no way out",
        "1-seat session: hold + order + approve; hold lapses; another member takes and pays the seat; capture",
        f"other member {taken.status_code}; capture {short(cap, 130)} refunded={body.get('refunded')}; replay "
        f"{cap2.status_code}; order {order['status']} refund_id {order.get('refund_id') or sim.get('refund_id')}; "
        f"simulator {sim.get('capture_status')}; refund mail {'yes' if refund_mail else 'no'}; "
        f"cancel {cancel.status_code}",
        safe,
        "409 in French saying it is refunded, order REFUNDED with a provider refund, an e-mail, no seat taken",
    )
