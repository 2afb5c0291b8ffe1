// /leaderboard and /leaderboard/VARIANT: the top 100 of a variant from
// GET /api/leaderboard/VARIANT (established ratings, deviation under 75, of accounts that
// played a rated game in the last 30 days). A tab per variant; each row links to the
// player's profile.

import { h, replace } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import * as apiModule from "../lib/api.js";
import { defaultVariant, variantNames } from "../lib/variants.js";
import { link, loadStyle, setPageTitle, spinner } from "../lib/ui.js";

const STYLE = new URL("../../css/profile.css", import.meta.url);

function myUsername() {
  const mine = typeof apiModule.cachedMe === "function" ? apiModule.cachedMe() : null;
  return mine && mine.username ? String(mine.username).toLocaleLowerCase() : "";
}

export function mount(container, params) {
  const asked = String(params.variant || "");
  const known = variantNames();
  const unknown = asked !== "" && !known.includes(asked.toLowerCase());
  const variant = known.includes(asked.toLowerCase()) ? asked.toLowerCase() : defaultVariant();
  let board = null;
  let failed = false;
  let alive = true;
  container.classList.add("page", "leaderboard-page");

  const render = () => {
    if (!alive) return;
    const name = t(`variant.${variant}.name`);
    // An unknown variant's page is the leaderboard's, not some variant's.
    setPageTitle(unknown ? t("page.title.leaderboard") : t("leaderboard.page_title", { variant: name }));
    let body;
    if (unknown) body = h("p", { class: "field-error", role: "alert" }, t("leaderboard.unknown", { name: asked }));
    else if (failed) body = h("p", { class: "field-error", role: "alert" }, t("error.generic"));
    else if (board === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
    else {
      const unsure = board.provisional || [];
      body = [
        board.players.length ? table(board.players, name) : h("p", { class: "muted profile-none leaderboard-empty" }, t("leaderboard.empty")),
        unsure.length ? [h("h2", { class: "leaderboard-provisional-title" }, t("leaderboard.provisional_title")),
          h("p", { class: "muted" }, t("leaderboard.provisional_intro")),
          table(unsure, name, true)] : null];
    }
    replace(container,
      h("h1", null, t("leaderboard.title")),
      h("nav", { class: "variant-tabs", "aria-label": t("leaderboard.variants") },
        known.map((v) => link(`/leaderboard/${v}`, {
          class: ["tab", v === variant && !unknown && "on"],
          "aria-current": v === variant && !unknown ? "page" : undefined,
        }, t(`variant.${v}.name`)))),
      unknown ? null : h("p", { class: "lead" }, t("leaderboard.intro", { variant: name })),
      body);
  };

  render();
  if (!unknown) {
    (async () => {
      try {
        const [answer] = await Promise.all([
          apiModule.request("GET", `/api/leaderboard/${encodeURIComponent(variant)}`), loadStyle(STYLE)]);
        board = answer;
      } catch {
        failed = true;
      }
      render();
    })();
  } else {
    loadStyle(STYLE);
  }
  // Who is signed in may be known only later (their row is marked).
  const unlisten = typeof apiModule.onSession === "function" ? apiModule.onSession(() => render()) : null;
  return {
    unmount() {
      alive = false;
      if (unlisten) unlisten();
    },
    relabel: render,
  };
}

function table(players, variantName, provisional = false) {
  const me = myUsername();
  return h("div", { class: ["leaderboard-wrap", provisional && "leaderboard-provisional"] },
    h("table", { class: "leaderboard-table" },
      h("caption", { class: "sr-only" }, t(provisional ? "leaderboard.provisional_caption" : "leaderboard.caption", { variant: variantName })),
      h("thead", null, h("tr", null,
        h("th", { scope: "col", class: "leaderboard-rank" }, h("abbr", { title: t("leaderboard.rank_label") }, t("leaderboard.rank"))),
        h("th", { scope: "col", class: "leaderboard-who" }, t("leaderboard.player")),
        h("th", { scope: "col", class: "leaderboard-num" }, t("leaderboard.rating")),
        h("th", { scope: "col", class: "leaderboard-num" }, t("leaderboard.games")))),
      h("tbody", null, players.map((p) => h("tr", {
        class: me && p.username.toLocaleLowerCase() === me ? "leaderboard-me" : null,
        dataset: { username: p.username },
      },
        h("td", { class: "leaderboard-rank" }, p.rank ? num(p.rank) : "–"),
        h("th", { scope: "row", class: "leaderboard-who" },
          link(`/players/${encodeURIComponent(p.username)}`, { class: "leaderboard-name" }, h("bdi", null, p.nickname)),
          p.nickname.toLocaleLowerCase() === p.username.toLocaleLowerCase() ? null
            : h("span", { class: "leaderboard-username muted" }, h("bdi", null, p.username))),
        h("td", { class: "leaderboard-num leaderboard-rating" }, h("bdi", { dir: "ltr", title: p.provisional ? t("profile.provisional") : null }, p.provisional ? `${p.rating}?` : String(p.rating))),
        h("td", { class: "leaderboard-num" }, num(p.games)))))));
}
