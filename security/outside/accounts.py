"""The security review's account defects replayed over HTTP: 4, 5, 9, 10 (listed in __main__)."""

import re
import statistics
import time

import requests

from .harness import (
    ADMIN,
    INES,
    JULIE,
    LUCIE,
    MEMBER,
    NEW_PASSWORD,
    SUPERVISOR,
    TIMEOUT,
    Api,
    Browser,
    Studio,
    last_mail_id,
    mails,
    report,
    reset_limits,
    short,
    wait_for_mail,
)

# --- defects 4, 5, 9, 10 -------------------------------------------------------------------------------------------


def item4(st: Studio) -> None:
    sup = Api(st.base, *SUPERVISOR)
    admin_row = st.user_by_email(ADMIN[0])
    admin_id = admin_row["id"]
    attacker_mail = "superviseur.pirate@example.fr"
    mark = last_mail_id()
    put = sup.put(f"/api/users/{admin_id}", {"email": attacker_mail})
    patch = sup.call("PATCH", f"/api/users/{admin_id}", json={"email": attacker_mail})
    reset_limits()
    forgot = requests.post(st.base + "/api/users/forgot-password", json={"email": attacker_mail}, timeout=TIMEOUT)
    time.sleep(4)
    admin_now = st.admin.get(f"/api/users/{admin_id}").json()
    reset_mail = wait_for_mail(to=attacker_mail, after_id=mark, contains="reset-password", seconds=4)
    link_mail = mails(to=attacker_mail, after_id=mark)
    safe = (
        put.status_code == 403
        and patch.status_code == 403
        and admin_now["email"] == ADMIN[0]
        and not admin_now.get("pending_email")
        and reset_mail is None
        and not link_mail
    )
    report(
        "4 supervisor changes the admin's e-mail",
        f"PUT/PATCH /api/users/{admin_id} {{email: {attacker_mail}}} as supervisor, then forgot-password for it",
        f"PUT {short(put, 90)}; PATCH {patch.status_code}; forgot {forgot.status_code}; admin e-mail "
        f"{admin_now['email']} pending '{admin_now.get('pending_email')}'; mails to attacker {len(link_mail)}",
        safe,
        "403, admin e-mail unchanged, no reset link to the supervisor",
    )

    # The dashboard's way: the supervisor's browser session, multipart PUT with the CSRF token.
    browser = Browser(st.base)
    browser.login(*SUPERVISOR)
    page = browser.request("GET", "/admin/users")
    edits = {}
    for field, value in (("first_name", "Pirate"), ("last_name", "Pirate"), ("phone", "0600000000"), ("city", "X")):
        r = browser.request(
            "PUT", f"/api/users/{admin_id}", files={field: (None, value)}, headers={"X-CSRFToken": browser.csrf}
        )
        edits[field] = r.status_code
    role = browser.request(
        "PUT", f"/api/users/{admin_id}", files={"role": (None, "user")}, headers={"X-CSRFToken": browser.csrf}
    )
    admin_after = st.admin.get(f"/api/users/{admin_id}").json()
    unchanged = all(admin_after[k] == admin_row[k] for k in ("first_name", "last_name", "phone", "city", "role"))
    report(
        "4' supervisor edits the admin from the dashboard",
        f"dashboard /admin/users ({page.status_code}), multipart PUT /api/users/{admin_id} first_name/last_name/"
        "phone/city/role with session + X-CSRFToken",
        f"{edits} role {role.status_code}; admin unchanged {unchanged}",
        all(c == 403 for c in edits.values()) and role.status_code == 403 and unchanged,
        "403 for every field; admin unchanged",
    )
    # Promoting oneself, and deleting the admin.
    me = sup.get("/api/users/profile").json()
    promote = sup.put(f"/api/users/{me['id']}", {"role": "admin"})
    promote2 = sup.put("/api/users/profile", {"role": "admin"})
    delete = sup.delete(f"/api/users/{admin_id}")
    role_now = st.user_by_email(SUPERVISOR[0])["role"]
    report(
        "4'' supervisor promotes self / deletes the admin",
        "PUT /api/users/<self> and /api/users/profile {role: admin}; DELETE /api/users/<admin>",
        f"{promote.status_code} / {promote2.status_code} / {delete.status_code}; role now {role_now}",
        promote.status_code == 403
        and promote2.status_code == 403
        and delete.status_code == 403
        and role_now == "supervisor",
        "403 each time, still supervisor",
    )


def item5(st: Studio) -> None:
    ines = Api(st.base, *INES)
    old_refresh, old_access = ines.refresh, ines.token
    browser = Browser(st.base)
    browser.login(*INES)
    reset_limits()
    mark = last_mail_id()
    forgot = requests.post(st.base + "/api/users/forgot-password", json={"email": INES[0]}, timeout=TIMEOUT)
    mail = wait_for_mail(to=INES[0], after_id=mark, contains="reset-password")
    if mail is None:
        report("5 reset", "forgot-password", f"{short(forgot)}; no reset mail within 25 s", None, "a reset link")
        return
    token = re.search(r"/reset-password/([\w-]+)", mail["body"]).group(1)
    reset = requests.post(
        st.base + f"/api/users/reset-password/{token}",
        json={"newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD},
        timeout=TIMEOUT,
    )
    refresh = requests.post(st.base + "/api/users/token/refresh", json={"refresh": old_refresh}, timeout=TIMEOUT)
    access = requests.get(
        st.base + "/api/users/profile", headers={"Authorization": f"Bearer {old_access}"}, timeout=TIMEOUT
    )
    session = browser.request("GET", "/api/users/profile")
    replay = requests.post(
        st.base + f"/api/users/reset-password/{token}",
        json={"newPassword": "Encore-Un-Autre-2026!", "confirmPassword": "Encore-Un-Autre-2026!"},
        timeout=TIMEOUT,
    )
    report(
        "5 logins survive a password reset",
        "login (refresh R, access A, browser session), reset by the e-mailed link, then use R, A, the session",
        f"reset {reset.status_code}; refresh R {short(refresh, 70)}; access A {access.status_code}; "
        f"session {session.status_code}; reset link replayed {replay.status_code}",
        reset.status_code == 200
        and refresh.status_code == 401
        and access.status_code == 401
        and session.status_code in (401, 403)
        and replay.status_code == 400,
        "refresh 401, old access 401, session ended, link single use",
    )

    # A refresh token of a deleted user.
    reset_limits()
    email = f"supprime.{int(time.time())}@example.fr"
    mark = last_mail_id()
    reg = requests.post(
        st.base + "/api/users/register",
        json={
            "first_name": "Sup",
            "last_name": "Prime",
            "email": email,
            "phone": "0612345670",
            "postal_code": "69002",
            "password": "Supprime-2026!",
            "confirmPassword": "Supprime-2026!",
            "acceptCGU": True,
        },
        timeout=TIMEOUT,
    )
    mail = wait_for_mail(to=email, after_id=mark, contains="confirm-email")
    if mail is None:
        report("5' deleted user", "register", f"{short(reg)}; no confirmation mail", None, "a confirmation link")
        return
    token = re.search(r"/confirm-email/([\w-]+)", mail["body"]).group(1)
    confirm = requests.get(st.base + f"/api/users/validate-email/{token}", timeout=TIMEOUT)
    doomed = Api(st.base, email, "Supprime-2026!")
    deleted = st.admin.delete(f"/api/users/{doomed.user_id}")
    refresh = requests.post(st.base + "/api/users/token/refresh", json={"refresh": doomed.refresh}, timeout=TIMEOUT)
    report(
        "5' refresh for a deleted user",
        "register + confirm (link replayed below) + login, admin DELETE /api/users/<id>, POST token/refresh",
        f"register {reg.status_code}, confirm {confirm.status_code}, delete {deleted.status_code}, "
        f"refresh {short(refresh, 80)}",
        deleted.status_code == 200 and refresh.status_code == 401,
        "401, never 500",
    )
    again = requests.get(st.base + f"/api/users/validate-email/{token}", timeout=TIMEOUT)
    report(
        "own: confirmation link replayed",
        "GET validate-email/<token> a second time",
        short(again, 90),
        again.status_code in (400, 404),
        "refused",
    )
    # Refresh rotation: the rotated token is blacklisted.
    lucie = Api(st.base, *LUCIE)
    first = requests.post(st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh}, timeout=TIMEOUT)
    replayed = requests.post(st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh}, timeout=TIMEOUT)
    forged = requests.post(
        st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh[:-4] + "AAAA"}, timeout=TIMEOUT
    )
    report(
        "own: refresh token replayed after rotation / forged",
        "token/refresh with R (rotates), again with R, then R with a forged signature",
        f"{first.status_code} / {short(replayed, 60)} / {forged.status_code}",
        first.status_code == 200 and replayed.status_code == 401 and forged.status_code == 401,
        "200 then 401, forged 401",
    )


def item9(st: Studio) -> None:
    reset_limits()

    def register(email):
        return requests.post(
            st.base + "/api/users/register",
            json={
                "first_name": "Test",
                "last_name": "Enum",
                "email": email,
                "phone": "0612345678",
                "postal_code": "69002",
                "password": "Enumeration-2026!",
                "confirmPassword": "Enumeration-2026!",
                "acceptCGU": True,
            },
            timeout=TIMEOUT,
        )

    known = register(MEMBER[0])
    known_upper = register(MEMBER[0].upper())
    unknown = register(f"jamais.vu.{int(time.time())}@example.fr")
    same = (known.status_code, known.json().get("message")) == (unknown.status_code, unknown.json().get("message"))
    same_upper = known_upper.status_code == unknown.status_code
    report(
        "9 registration tells who has an account",
        "register with an existing address (and in capitals) and with a new one",
        f"existing {short(known, 80)} / capitals {known_upper.status_code} / new {short(unknown, 60)}",
        same and same_upper,
        "the same status and message",
    )

    times = {"known": [], "unknown": []}
    bodies = set()
    for i in range(10):
        if i % 2 == 0:
            reset_limits(kinds=("rl:", "mail-quota:"))
        for kind, email in (("known", LUCIE[0]), ("unknown", f"personne.{i}@example.fr")):
            t = time.perf_counter()
            r = requests.post(st.base + "/api/users/forgot-password", json={"email": email}, timeout=TIMEOUT)
            times[kind].append((time.perf_counter() - t) * 1000)
            bodies.add((r.status_code, r.text))
    med = {k: statistics.median(v) for k, v in times.items()}
    diff = abs(med["known"] - med["unknown"])
    report(
        "9 forgot-password timing",
        "10 forgot-password for a known and 10 for an unknown address (rate-limit counters reset every 2 pairs)",
        f"median known {med['known']:.1f} ms, unknown {med['unknown']:.1f} ms (diff {diff:.1f} ms); "
        f"distinct answers {len(bodies)}",
        diff < max(15.0, 0.5 * med["unknown"]) and len(bodies) == 1,
        "no measurable difference, one answer",
    )
    # Own: login and resend-confirmation for a known vs an unknown address (8 of each, interleaved).
    login_times = {"known": [], "unknown": []}
    login_answers = set()
    for i in range(8):
        reset_limits(kinds=("login-failures",))
        for kind, email in (("known", JULIE[0]), ("unknown", f"personne.{i}@example.fr")):
            t = time.perf_counter()
            r = requests.post(
                st.base + "/api/users/login", json={"email": email, "password": f"faux-{i}"}, timeout=TIMEOUT
            )
            login_times[kind].append((time.perf_counter() - t) * 1000)
            login_answers.add((r.status_code, r.text))
    login_med = {k: statistics.median(v) for k, v in login_times.items()}
    login_diff = abs(login_med["known"] - login_med["unknown"])
    reset_limits()
    c = requests.post(st.base + "/api/users/resend-confirmation", json={"email": JULIE[0]}, timeout=TIMEOUT)
    d = requests.post(
        st.base + "/api/users/resend-confirmation", json={"email": "personne@example.fr"}, timeout=TIMEOUT
    )
    reset_limits()
    report(
        "own: login / resend-confirmation enumeration",
        "8 wrong-password logins for a known and 8 for unknown addresses; resend-confirmation known vs unknown",
        f"login median known {login_med['known']:.0f} ms vs unknown {login_med['unknown']:.0f} ms "
        f"(diff {login_diff:.0f} ms), distinct answers {len(login_answers)}; resend {c.status_code} vs {d.status_code}",
        len(login_answers) == 1 and login_diff < max(25.0, 0.5 * login_med["unknown"]) and c.text == d.text,
        "the same answers, no measurable difference",
    )


def item10(st: Studio) -> None:
    browser = Browser(st.base)
    browser.login(*MEMBER)
    before = browser.request("GET", "/api/users/profile").status_code
    evil = {"Origin": "https://evil.example", "Referer": "https://evil.example/page"}
    form = browser.request("POST", "/api/users/logout", data={"refresh": ""}, headers=evil)
    plain = browser.request("POST", "/api/users/logout", data="x", headers={**evil, "Content-Type": "text/plain"})
    as_json = browser.request("POST", "/api/users/logout", json={}, headers=evil)
    page = browser.request("POST", "/logout", data={}, headers=evil, allow_redirects=False)
    get_page = browser.request("GET", "/logout", allow_redirects=False)
    after = browser.request("GET", "/api/users/profile").status_code
    report(
        "10 cross-site logout",
        "POST /api/users/logout with the member's cookies, no CSRF token, Origin evil.example (form, text/plain, "
        "JSON), POST and GET /logout",
        f"form {short(form, 70)}; text/plain {plain.status_code}; json {as_json.status_code}; /logout POST "
        f"{page.status_code} GET {get_page.status_code}; profile before {before} after {after}",
        all(r.status_code == 403 for r in (form, plain, as_json, page))
        and get_page.status_code in (403, 405)
        and after == 200,
        "403 each time, still logged in",
    )
    legit = browser.request("POST", "/api/users/logout", json={}, headers={"X-CSRFToken": browser.csrf})
    gone = browser.request("GET", "/api/users/profile").status_code
    report(
        "10 control: the site's own logout",
        "POST /api/users/logout with X-CSRFToken",
        f"{legit.status_code}, profile then {gone}",
        legit.status_code == 200 and gone in (401, 403),
        "200 then 401",
    )
    # Own: cross-site login CSRF (log the victim into the attacker's account).
    victim = Browser(st.base)
    victim.s.get(st.base + "/login", timeout=TIMEOUT)
    forced = victim.request("POST", "/api/users/login", data={"email": JULIE[0], "password": JULIE[1]}, headers=evil)
    report(
        "own: cross-site login (login CSRF)",
        "form POST /api/users/login with a csrftoken cookie, no token",
        short(forced, 90),
        forced.status_code == 403,
        "403",
    )
