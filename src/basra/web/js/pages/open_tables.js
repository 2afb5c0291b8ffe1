// The lobby's open tables (issue 28): private tables their creators listed, waiting for
// players, newest first, each with who sits where (and, in teams, who partners whom), a
// free seat taken in one tap (the one you pick). Asked again every 5 s while the lobby is
// shown, never while the tab is hidden.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { request } from "../lib/api.js";
import { seatingKey } from "../lib/variants.js";
import { errorText, toast } from "../lib/ui.js";

const EVERY_MS = 5000;

export class OpenTables {
  constructor(lobby) {
    this.lobby = lobby;
    this.tables = null;
    this.timer = 0;
  }

  start() {
    this.load();
    this.timer = setInterval(() => { if (!document.hidden) this.load(); }, EVERY_MS);
  }

  stop() { clearInterval(this.timer); }

  async load() {
    try {
      this.tables = (await request("GET", "/api/tables/open")).tables || [];
    } catch { this.tables = this.tables || []; }
    this.redraw();
  }

  redraw() {
    const box = this.lobby.parts.open;
    if (!box || !box.isConnected) return;
    const tables = this.tables || [];
    replace(box,
      h("h2", { id: "open-title" }, t("lobby.open.title")),
      tables.length ? h("ul", { class: "open-tables" }, tables.map((table) => this.item(table)))
        : h("p", { class: "muted" }, this.tables === null ? t("lobby.loading") : t("lobby.open.none")));
  }

  item(table) {
    const words = [t(`variant.${table.variant}.name`), t(`seating.${seatingKey(table)}`)];
    if (table.rated) words.push(t("challenge.rated"));
    return h("li", { class: "open-table", dataset: { table: table.table } },
      h("p", { class: "open-table-what" }, words.join(" · ")),
      h("ul", { class: "open-seats" }, table.seats.map((seat) => h("li", { class: ["open-seat", `seat-${seat.kind}`], dataset: { seat: seat.seat } },
        table.teams ? h("span", { class: "open-side muted" }, t(seat.side === 0 ? "lobby.open.side_a" : "lobby.open.side_b")) : null,
        seat.kind === "human" ? h("bdi", null, seat.name)
          : seat.kind === "bot" ? h("span", { class: "muted" }, t("lobby.open.bot"))
            : h("button", { type: "button", class: "btn small primary", "aria-label": t("lobby.open.sit_label", { seat: seat.seat + 1 }), on: { click: () => this.sit(table.table, seat.seat) } }, t("lobby.open.sit"))))));
  }

  sit(tableId, seat) {
    return this.lobby.act("sit", async () => {
      try {
        const answer = await request("POST", `/api/tables/${encodeURIComponent(tableId)}/sit`, { seat });
        this.lobby.open(answer.table.id);
      } catch (err) {
        toast(errorText(err), "error");
        this.load();
      }
    });
  }
}
