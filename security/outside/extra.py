"""Attacks of our own: ids of others, replays, races, a forged webhook, password guessing, roles."""

import threading

import requests

from .harness import (
    INES_NEW,
    JULIE,
    LUCIE,
    MEMBER,
    SARAH,
    SUPERVISOR,
    TIMEOUT,
    Api,
    Studio,
    approve,
    approved_order,
    buy_tariff,
    capture,
    hold,
    my_passes,
    open_order,
    parallel,
    report,
    reset_limits,
    short,
    simulator_order,
)

# --- attacks of our own --------------------------------------------------------------------------------------------


def own_attacks(st: Studio) -> None:
    member, lucie = Api(st.base, *MEMBER), Api(st.base, *LUCIE)
    # Ids of others.
    sid, res, oid = approved_order(st, member)
    lucie_cards = [p for p in my_passes(lucie) if p.get("credits_left")]
    member_pass_id = None
    oid_card, _ = buy_tariff(member, st.tariff("Carte 10 cours"))
    member_pass_id = next(p["id"] for p in my_passes(member) if p["title"] == "Carte 10 cours")
    sid2 = st.new_session()
    tries = {
        "capture other's order": capture(lucie, oid).status_code,
        "approve other's order": approve(lucie, oid).status_code,
        "cancel other's order": lucie.post("/api/paypal/cancel-order", {"orderId": oid}).status_code,
        "create-order on other's hold": open_order(lucie, res).status_code,
        "cancel other's reservation": lucie.post(f"/api/reservations-courses/{res['id']}/cancel").status_code,
        "book with other's pass": hold(lucie, sid2, 1, pass_id=member_pass_id).status_code,
        "PUT other's profile": lucie.put(f"/api/users/{member.user_id}", {"first_name": "Pirate"}).status_code,
        "GET other's profile": lucie.get(f"/api/users/{member.user_id}").status_code,
        "other's contact messages": lucie.get(f"/api/contact-messages/user/{member.user_id}").status_code,
        "other's feedback history": lucie.get(f"/api/course-feedback/user/{member.user_id}").status_code,
    }
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    still = order["status"] == "APPROVED" and any(a["id"] == res["id"] for a in st.attendees(sid))
    report(
        "own: ids of others",
        ", ".join(tries),
        f"{tries}; victim's order still {order['status']}",
        all(c in (403, 404) for c in tries.values()) and still and lucie_cards is not None,
        "403/404 each, nothing changed",
    )
    # A member on staff write endpoints.
    tries = {
        "record a payment": member.post(
            "/api/paypal/orders",
            {
                "order_id": "FREE-1",
                "email": MEMBER[0],
                "amount": "0",
                "title": "x",
                "date": "d",
                "time": "t",
                "status": "COMPLETED",
            },
        ).status_code,
        "edit own order to COMPLETED": member.put(f"/api/paypal/orders/{oid}", {"status": "COMPLETED"}).status_code,
        "grant self credits": member.post(
            "/api/passes", {"member_email": MEMBER[0], "kind": "card", "credits": 100, "reason": "x"}
        ).status_code,
        "add credits to own pass": member.put(
            f"/api/passes/{member_pass_id}", {"credits_delta": 100, "reason": "x"}
        ).status_code,
        "create a session": member.post("/api/course-sessions", {"course_id": st.course_id}).status_code,
        "set own role": member.put("/api/users/profile", {"role": "admin"}).status_code,
        "change own e-mail": member.put("/api/users/profile", {"email": "autre@example.fr"}).status_code,
        "list users": member.get("/api/users").status_code,
    }
    me = st.user_by_email(MEMBER[0])
    report(
        "own: a member on staff writes",
        ", ".join(tries),
        f"{tries}; role {me['role']} e-mail {me['email']} pending '{me.get('pending_email')}'",
        all(c in (403, 401) for k, c in tries.items() if k not in ("change own e-mail", "set own role"))
        and tries["set own role"] in (403, 200)
        and me["role"] == "user"
        and me["email"] == MEMBER[0]
        and not me.get("pending_email"),
        "403, role and e-mail unchanged",
    )
    # Replays on money.
    capture_answers = parallel(lambda: capture(member, oid), [()] * 8)
    replays = [capture(member, oid).status_code for _ in range(3)]
    approve_again = approve(member, oid).status_code
    rows = [o for o in st.orders(member.email) if o["reservation_id"] == res["id"]]
    completed = [o for o in rows if o["status"] == "COMPLETED"]
    report(
        "own: replayed captures",
        "8 concurrent captures of one approved order, 3 more after, approve again",
        f"{sorted(c.status_code for c in capture_answers)} then {replays}; approve {approve_again}; "
        f"completed orders {len(completed)}",
        len(completed) == 1 and approve_again in (400, 409),
        "one payment, idempotent 200s, approve refused",
    )
    cancel1 = member.post(f"/api/reservations-courses/{res['id']}/cancel")
    cancel2 = member.post(f"/api/reservations-courses/{res['id']}/cancel")
    reopened = open_order(member, res)
    report(
        "own: cancel a paid reservation twice, pay it again",
        "cancel, cancel, create-order on it",
        f"{short(cancel1, 80)} / {cancel2.status_code} / {reopened.status_code}",
        cancel1.status_code == 200 and cancel2.status_code in (400, 409) and 400 <= reopened.status_code < 500,
        "one credit back, second cancel refused, no new order",
    )
    # Capture racing the buyer's cancel (3 rounds).
    results = []
    for _ in range(3):
        sid, r, o = approved_order(st, lucie)
        barrier = threading.Barrier(2)

        def go(kind, o=o, barrier=barrier):
            barrier.wait()
            if kind == "capture":
                return capture(lucie, o)
            return lucie.post("/api/paypal/cancel-order", {"orderId": o})

        cap, can = parallel(go, [("capture",), ("cancel",)])
        status = next(x for x in st.orders(o) if x["order_id"] == o)["status"]
        sim = simulator_order(o) or {}
        confirmed = any(a["id"] == r["id"] and a["status"] == "confirmed" for a in st.attendees(sid))
        kept = sim.get("capture_id") and not sim.get("refund_id") and not confirmed
        seat_free = not sim.get("capture_id") and confirmed
        results.append((cap.status_code, can.status_code, status, confirmed, bool(kept or seat_free)))
    report(
        "own: capture racing cancel-order (3 rounds)",
        "capture + cancel-order of one approved order at the same instant",
        "; ".join(
            f"capture {a} cancel {b} → {s}, seat {'confirmed' if c else 'not confirmed'}" for a, b, s, c, _ in results
        ),
        not any(x[4] for x in results),
        "paid and confirmed, or not captured / refunded and not confirmed",
    )
    # Five members race for the last seat.
    sid = st.new_session(seats=1)
    members = [Api(st.base, *acct) for acct in (MEMBER, LUCIE, SARAH, JULIE, INES_NEW)]
    barrier = threading.Barrier(len(members))

    def race(api):
        barrier.wait()
        return hold(api, sid, 1)

    answers = parallel(race, [(m,) for m in members])
    codes = [a.status_code for a in answers]
    held = sum(a["participants"] for a in st.attendees(sid))
    report(
        "own: 5 members hold the last seat at once",
        "5 concurrent holds of 1 on a 1-seat session",
        f"{codes}; seats taken {held}",
        codes.count(201) == 1 and held == 1,
        "one winner",
    )
    # A forged PayPal webhook (the simulator trusts none).
    hook = requests.post(
        st.base + "/api/paypal/webhook",
        json={
            "id": "WH-1",
            "event_type": "PAYMENT.CAPTURE.COMPLETED",
            "resource": {
                "id": "X",
                "status": "COMPLETED",
                "amount": {"currency_code": "EUR", "value": "25.00"},
                "supplementary_data": {"related_ids": {"order_id": oid}},
            },
        },
        timeout=TIMEOUT,
    )
    report(
        "own: forged PayPal webhook",
        "POST /api/paypal/webhook CAPTURE.COMPLETED, no signature",
        short(hook, 80),
        hook.status_code == 403,
        "403 (unsigned: refused as unauthenticated)",
    )
    # Password guessing on one account.
    reset_limits()
    guesses = [
        requests.post(
            st.base + "/api/users/login", json={"email": JULIE[0], "password": f"devine-{i}"}, timeout=TIMEOUT
        ).status_code
        for i in range(7)
    ]
    right = requests.post(st.base + "/api/users/login", json={"email": JULIE[0], "password": JULIE[1]}, timeout=TIMEOUT)
    report(
        "own: password guessing",
        "7 wrong passwords for one account, then the right one",
        f"{guesses} then {right.status_code}",
        guesses.count(401) <= 5 and guesses[-1] == 429 and right.status_code == 429,
        "locked after 5 failures (429), even for the right password",
    )
    reset_limits()
    # Supervisor on roles of members.
    sup = Api(st.base, *SUPERVISOR)
    lucie_id = st.user_by_email(LUCIE[0])["id"]
    role = sup.put(f"/api/users/{lucie_id}", {"role": "supervisor"})
    report(
        "own: supervisor promotes a member",
        f"PUT /api/users/{lucie_id} {{role: supervisor}}",
        short(role, 80),
        role.status_code == 403 and st.user_by_email(LUCIE[0])["role"] == "user",
        "403",
    )
