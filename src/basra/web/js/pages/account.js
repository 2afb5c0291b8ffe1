// /account. A guest (or a first visit) is offered to keep its games: an account made of
// this guest (username prefilled from the nickname, a password: account/create.js), then a
// passkey, or back to `?next=` (a path of this site: the invite of a rated table a guest
// could not take). An account sees its display name (PATCH /api/me), its ratings and
// profile link, its passkeys (add, remove), its password, its sessions (each device, this
// one marked; sign one out, or every one), its data to download, and deleting it (the
// username typed to confirm), and the reports it sent with what came of them
// (account/reports.js).
// What a stolen token must not do asks for a fresh proof first (guard.js).
// Each part is redrawn on its own, so what is typed in one survives a change in another.

import { h, replace } from "../lib/dom.js";
import { t, num, dateTime } from "../lib/i18n.js";
import { api, download, forgetPlayer, me, rename, session, signOut } from "../lib/api.js";
import { addPasskey, deviceName, passkeyError, passkeysSupported } from "../lib/passkey.js";
import { limits, variantNames } from "../lib/variants.js";
import { announce, errorText, link, loadStyle, navigate, spinner, toast } from "../lib/ui.js";
import { confirmDialog } from "../table/dialog.js";
import { everywhereDialog, withProof } from "./account/guard.js";
import { field, guestView } from "./account/create.js";
import { loadReports, reportsPart } from "./account/reports.js";

const STYLES = ["../../css/account.css", "../../css/overlay.css"].map((path) => new URL(path, import.meta.url));
const PARTS = ["top", "name", "ratings", "reports", "passkeys", "password", "sessions", "data", "danger"];

export function mount(container) {
  const page = new AccountPage(container);
  page.start();
  return { unmount: () => { page.alive = false; }, relabel: () => page.render() };
}

class AccountPage {
  constructor(container) {
    this.container = container;
    this.alive = true;
    this.player = null;
    this.checked = false;
    this.failed = false;
    this.sessions = null;
    this.passkeys = null;
    /** What is typed, by field id, kept across every redraw. */
    this.drafts = {};
    this.errors = {};
    /** Each error's code; the create form's field its error is about (or null). */
    this.errorCodes = {};
    this.errorField = null;
    this.busy = "";
    this.offerPasskey = false;
    this.parts = {};
  }

  async start() {
    this.container.classList.add("page", "account-page");
    await Promise.all(STYLES.map(loadStyle));
    this.render();
    try {
      this.player = await me();
    } catch {
      this.failed = true;
    }
    this.checked = true;
    this.render();
    if (this.player && this.player.account) this.loadLists();
  }

  async loadLists() {
    const [sessions, passkeys, reports] = await Promise.all([
      api.sessions().then((a) => a.sessions, () => []),
      api.passkeys().then((a) => a.passkeys, () => []),
      loadReports(),
    ]);
    if (!this.alive) return;
    this.sessions = sessions;
    this.passkeys = passkeys;
    this.reports = reports;
    this.draw("sessions");
    this.draw("passkeys");
    this.draw("reports");
  }

  draft(id, fallback = "") { return this.drafts[id] ?? fallback; }

  /** An input's attributes: what is typed (`drafts`) always wins over its first value
   * (`attrs.value`), set as the property (never in the markup); `error`: the id of an
   * error line about this field, which then marks it. */
  input(id, { value = "", ...attrs }, error = null) {
    return { ...attrs, "aria-describedby": [`${id}-hint`, error && `${error}-error`].filter(Boolean).join(" "),
      "aria-invalid": error ? "true" : undefined, props: { value: this.draft(id, value || "") },
      on: { input: (e) => { this.drafts[id] = e.target.value; this.typed(id); } } };
  }

  errorLine(id) {
    return h("p", { class: "field-error", id: `${id}-error`, role: "alert" }, this.errors[id] || "");
  }

  typed(id) {
    if (id === "delete-confirm") {
      const button = this.container.querySelector("#delete-account");
      if (button) button.disabled = this.draft(id) !== this.player.username || !!this.busy;
    }
  }

  // ---------------------------------------------------------------- the page

  render() {
    if (!this.alive) return;
    const c = this.container;
    if (!this.checked) { replace(c, h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))); return; }
    if (this.failed) { replace(c, h("p", { class: "field-error", role: "alert" }, t("error.network.offline"))); return; }
    if (!this.player || !this.player.account) { replace(c, guestView(this)); return; }
    const sections = PARTS.map((name) => {
      this.parts[name] = h("section", { class: ["card-box", "account-box", `account-${name}`], "aria-labelledby": `account-${name}-title` });
      return this.parts[name];
    });
    replace(c, h("div", { class: "account-grid" }, sections));
    for (const name of PARTS) this.draw(name);
  }

  draw(name) {
    const box = this.parts[name];
    if (!box || !box.isConnected) return;
    const title = (key) => h(name === "top" ? "h1" : "h2", { id: `account-${name}-title`, tabindex: name === "top" ? "-1" : undefined }, t(key));
    const drawn = this[`${name}Part`](title);
    replace(box, drawn);
  }

  /** Run an action, the page's buttons off meanwhile; its error goes to `errorKey` (a
   * field's line) or a toast. */
  async act(name, fn, errorKey = null, words = errorText) {
    if (this.busy) return false;
    this.busy = name;
    if (errorKey) { this.errors[errorKey] = ""; this.errorCodes[errorKey] = ""; }
    const off = Array.from(this.container.querySelectorAll("button:not([disabled])"));
    for (const button of off) button.disabled = true;
    try {
      await fn();
      return true;
    } catch (err) {
      if (errorKey) { this.errors[errorKey] = words(err); this.errorCodes[errorKey] = (err && err.code) || ""; }
      else toast(words(err), "error");
      return false;
    } finally {
      this.busy = "";
      for (const button of off) button.disabled = false;
    }
  }

  // ---------------------------------------------------------------- an account

  topPart(title) {
    const p = this.player;
    const offer = this.offerPasskey && !(this.passkeys && this.passkeys.length) ? h("div", { class: "passkey-offer", role: "status" },
      h("p", null, h("strong", null, t("account.create.done", { name: p.username }))),
      h("p", null, t("account.passkey.offer")),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "btn primary", id: "offer-passkey", disabled: !!this.busy, on: { click: () => this.addPasskey() } }, t("account.passkey.add")),
        h("button", { type: "button", class: "btn ghost", on: { click: () => { this.offerPasskey = false; this.draw("top"); } } }, t("account.passkey.later")))) : null;
    return [title("account.title"),
      h("p", { class: "signed-in" }, t("account.signed_in_as"), " ", h("bdi", { class: "username" }, p.username)),
      offer,
      h("div", { class: "actions" },
        link(`/players/${encodeURIComponent(p.username)}`, { class: "btn", id: "to-profile" }, t("account.profile")),
        link("/settings", { class: "btn", id: "to-settings" }, t("settings.link")),
        h("button", { type: "button", class: "btn ghost", id: "sign-out", disabled: !!this.busy, on: { click: () => this.signOut() } }, t("account.sign_out")))];
  }

  namePart(title) {
    const l = limits();
    return [title("account.name.title"),
      h("form", { class: "account-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); this.saveName(); } } },
        field("display-name", t("account.name.label"), this.input("display-name", {
          type: "text", autocomplete: "nickname", dir: "auto", required: true, value: this.player.nickname,
          minlength: l.nickname_min, maxlength: l.nickname_max,
        }, this.errors["display-name"] ? "display-name" : null), t("account.name.hint", { name: this.player.username })),
        this.errorLine("display-name"),
        h("div", { class: "actions" }, h("button", { type: "submit", class: "btn", id: "save-name", disabled: !!this.busy }, t("account.name.save"))))];
  }

  async saveName() {
    const nickname = this.draft("display-name", this.player.nickname).trim();
    const ok = await this.act("name", async () => { this.player = await rename(nickname); }, "display-name");
    if (ok) { delete this.drafts["display-name"]; toast(t("lobby.name.saved", { name: this.player.nickname }), "info"); }
    this.draw("name");
    this.draw("top");
  }

  ratingsPart(title) {
    const ratings = this.player.ratings || {};
    const rows = variantNames().filter((v) => ratings[v]).map((v) => h("li", { class: "acct-rating", dataset: { variant: v } },
      h("span", { class: "acct-rating-variant" }, t(`variant.${v}.name`)),
      h("bdi", { class: ["acct-rating-value", ratings[v].provisional && "provisional"], dir: "ltr" }, ratings[v].label),
      h("span", { class: "muted acct-rating-games" }, t("account.ratings.games", { count: ratings[v].games, n: num(ratings[v].games) }))));
    return [title("account.ratings.title"),
      rows.length ? h("ul", { class: "acct-ratings" }, rows) : h("p", { class: "muted" }, t("account.ratings.none")),
      h("p", { class: "hint" }, t("account.ratings.hint"))];
  }

  reportsPart(title) { return reportsPart(this.reports ?? null, title); }

  passkeysPart(title) {
    const list = this.passkeys;
    const items = list === null ? h("p", { class: "muted" }, spinner())
      : !list.length ? h("p", { class: "muted" }, t("account.passkey.none"))
        : h("ul", { class: "item-list passkey-list" }, list.map((k) => h("li", { class: "item", dataset: { passkey: k.id } },
          h("div", { class: "item-main" },
            h("bdi", { class: "item-name" }, k.name || t("account.passkey.default_name")),
            h("span", { class: "item-meta muted" }, t("account.passkey.added", { when: dateTime(k.created_at) }),
              k.last_used_at ? [" · ", t("account.passkey.used", { when: dateTime(k.last_used_at) })] : null)),
          h("button", { type: "button", class: "btn small ghost remove-passkey", disabled: !!this.busy, "aria-label": t("account.passkey.remove_label", { name: k.name }), on: { click: () => this.removePasskey(k) } }, t("account.passkey.remove")))));
    return [title("account.passkey.title"),
      h("p", { class: "muted" }, t("account.passkey.intro")),
      items,
      passkeysSupported()
        ? h("button", { type: "button", class: "btn", id: "add-passkey", disabled: !!this.busy, on: { click: () => this.addPasskey() } }, t("account.passkey.add"))
        : h("p", { class: "hint passkey-unsupported" }, t("account.passkey.unsupported")),
      this.errorLine("passkey")];
  }

  async addPasskey() {
    const ok = await this.act("passkey", () => this.proved(() => addPasskey(deviceName() || t("account.passkey.default_name"))), "passkey", passkeyError);
    if (ok) {
      this.offerPasskey = false;
      toast(t("account.passkey.added_toast"), "info");
      announce(t("account.passkey.added_toast"));
      this.passkeys = (await api.passkeys().catch(() => ({ passkeys: this.passkeys || [] }))).passkeys;
    }
    if (!this.alive) return;
    this.drawAll();
  }

  async removePasskey(key) {
    const yes = await confirmDialog({ title: t("account.passkey.remove_title"), text: t("account.passkey.remove_text", { name: key.name }), yes: t("account.passkey.remove"), no: t("account.cancel"), danger: true });
    if (!yes) return;
    const ok = await this.act("passkey", () => this.proved(() => api.removePasskey(key.id)), "passkey");
    if (ok) this.passkeys = this.passkeys.filter((k) => k.id !== key.id);
    this.draw("passkeys");
  }

  passwordPart(title) {
    const has = this.player.has_password;
    return [title(has ? "account.password_change.title" : "account.password_set.title"),
      h("form", { class: "account-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); this.changePassword(); } } },
        h("input", { type: "text", name: "username", autocomplete: "username", value: this.player.username, hidden: true, readonly: true }),
        has ? field("current-password", t("account.password_change.current"), this.input("current-password", { type: "password", autocomplete: "current-password", required: true })) : null,
        field("new-password", t("account.password_change.new"), this.input("new-password", { type: "password", autocomplete: "new-password", required: true, minlength: limits().password_min, maxlength: limits().password_max }),
          t("account.password_hint", { n: limits().password_min })),
        this.errorLine("password"),
        h("p", { class: "hint" }, t("account.password_change.others")),
        h("div", { class: "actions" }, h("button", { type: "submit", class: "btn", id: "change-password", disabled: !!this.busy }, t(has ? "account.password_change.submit" : "account.password_set.submit"))))];
  }

  async changePassword() {
    const password = this.draft("new-password");
    const current = this.player.has_password ? this.draft("current-password") : "";
    if (password.length < limits().password_min || password.length > limits().password_max) {
      this.errors.password = t("error.account.weak_password");
      this.draw("password");
      return;
    }
    const ok = await this.act("password", () => this.proved(() => api.changePassword(password, current)), "password");
    if (ok) {
      delete this.drafts["new-password"];
      delete this.drafts["current-password"];
      this.player = { ...this.player, has_password: true };
      toast(t("account.password_change.done"), "info");
      me().then((p) => { if (p) this.player = p; }).catch(() => null);
      this.loadLists();
    }
    this.draw("password");
  }

  sessionsPart(title) {
    const list = this.sessions;
    const items = list === null ? h("p", { class: "muted" }, spinner())
      : h("ul", { class: "item-list session-list" }, list.map((s) => h("li", { class: ["item", s.current && "current"], dataset: { session: s.id, current: s.current ? "true" : "false" } },
        h("div", { class: "item-main" },
          h("span", { class: "item-name" }, deviceName(s.user_agent || (s.current ? navigator.userAgent : "")) || t("account.sessions.unknown_device"),
            s.current ? h("span", { class: "badge current-badge" }, t("account.sessions.this_device")) : null),
          h("span", { class: "item-meta muted" }, t(`account.sessions.kind.${s.kind}`), " · ", dateTime(s.created_at),
            s.address ? [" · ", h("bdi", { dir: "ltr" }, s.address)] : null)),
        s.current ? null : h("button", { type: "button", class: "btn small ghost revoke-session", disabled: !!this.busy, on: { click: () => this.revoke(s) } }, t("account.sessions.revoke")))));
    const count = list ? list.length : 0;
    return [title("account.sessions.title"),
      list ? h("p", { class: "muted" }, t("account.sessions.count", { count, n: num(count) })) : null,
      items,
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn danger-ghost", id: "sign-out-everywhere", disabled: !!this.busy, on: { click: () => this.signOutEverywhere() } }, t("account.sessions.everywhere")))];
  }

  async revoke(s) {
    const ok = await this.act("sessions", () => api.revokeSession(s.id));
    if (ok) this.sessions = this.sessions.filter((x) => x.id !== s.id);
    this.draw("sessions");
  }

  async signOut() {
    if (await this.act("sign-out", () => signOut())) this.left(t("account.signed_out"), "/");
  }

  async signOutEverywhere() {
    const remove = await everywhereDialog(this.passkeys, this.sessions);
    const removing = async () => { for (const id of remove) await this.proved(() => api.removePasskey(id)); };
    if (remove && await this.act("sessions", async () => { await removing(); await signOut({ everywhere: true }); })) this.left(t("account.sessions.everywhere_done"), "/sign-in");
  }

  left(text, path) { toast(text, "info"); announce(text); navigate(path); }

  dataPart(title) {
    return [title("account.data.title"),
      h("p", { class: "muted" }, t("account.data.intro")),
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "export-data", disabled: !!this.busy, on: { click: () => this.exportData() } }, t("account.data.download")))];
  }

  async exportData() {
    await this.act("data", () => this.proved(() => download("/api/account/export", `basra-${this.player.username}.json`)));
  }

  dangerPart(title) {
    const name = this.player.username;
    return [title("account.delete.title"),
      h("p", null, t("account.delete.intro")),
      h("form", { class: "account-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); this.deleteAccount(); } } },
        field("delete-confirm", t("account.delete.confirm", { name }), this.input("delete-confirm", { type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false", dir: "auto" })),
        this.errorLine("delete"),
        h("div", { class: "actions" }, h("button", { type: "submit", class: "btn danger", id: "delete-account", disabled: this.draft("delete-confirm") !== name || !!this.busy }, t("account.delete.submit"))))];
  }

  async deleteAccount() {
    const typed = this.draft("delete-confirm");
    if (typed !== this.player.username) return;
    const ok = await this.act("delete", () => this.proved(() => api.deleteAccount(typed)), "delete");
    if (ok) {
      forgetPlayer();
      this.left(t("account.delete.done"), "/");
    } else this.draw("danger");
  }

  /** `fn()`, after a fresh proof if the server asks for one (guard.js). */
  proved(fn) { return withProof(fn, this.player, this.passkeys); }

  drawAll() {
    if (session.token && this.player && this.player.account && this.parts.top && this.parts.top.isConnected) for (const name of PARTS) this.draw(name);
    else this.render();
  }
}
