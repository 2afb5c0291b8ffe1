// The table page's one set of listeners: clicks, the own-text form, hovers and focus reach
// the page through the data-action of the element (so a redrawn region needs no listeners
// of its own), and keys go to keyboard.js. `page` is the table page (table.js).

import { reducedMotion } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/api.js";
import { copyText, errorText, navigate, playerName, toast } from "../lib/ui.js";
import { reportDialog } from "../lib/report.js";
import * as S from "./state.js";
import { onKeydown } from "./keyboard.js";
import { useText } from "./seeding.js";
import { shareInvite } from "./center.js";
import { hidePhrases, muteSeat, outside, say, toggleSay } from "./phrases.js";
import { askHint, cancelTable, resign } from "./tools.js";
import { activate, cancelChoice, chooseOption, floorClick } from "./playing.js";

function actionOf(event) {
  return event.target.closest ? event.target.closest("[data-action]") : null;
}

async function addBot(page, button) {
  const row = button.closest(".wait-seat");
  const select = row && row.querySelector(".level-select");
  button.disabled = true;
  try {
    await api.addBot(S.table(page.st).id, Number(button.dataset.seat), select.value);
  } catch (err) {
    toast(errorText(err), "error");
    button.disabled = false;
  }
}

async function copyInvite(page) {
  const code = S.table(page.st).invite_code;
  const ok = await copyText(`${location.origin}/join/${code}`);
  toast(ok ? t("wait.copied") : t("wait.copy_failed"), ok ? "info" : "error");
}

/** Report the person in `seat` (the match concerned: this table). */
function reportSeat(page, seat) {
  const tb = S.table(page.st);
  const player = tb.players[seat];
  if (!player || player.kind !== "human" || seat === page.st.seat) return;
  reportDialog([{ name: playerName(player, tb.players), body: { table: tb.id, seat } }], { table: tb.id });
}

function click(page, event) {
  const target = actionOf(event);
  outside(page, event.target);
  if (!target || !page.container.contains(target)) return;
  const d = target.dataset;
  switch (d.action) {
    case "play-card": activate(page, d.card); break;
    case "floor-card": floorClick(page, d.card); break;
    case "option": chooseOption(page, Number(d.option)); break;
    case "cancel-choice": cancelChoice(page); break;
    case "ready": page.ready(); break;
    case "close-overlay": page.closeOverlay(); break;
    case "rematch": page.send({ type: "rematch" }); break;
    case "mute": page.toggleMute(); break;
    case "rules": page.rules(); break;
    case "resign": resign(page); break;
    case "hint": askHint(page); break;
    case "dismiss-away": page.dismissAway(); break;
    case "add-bot": addBot(page, target); break;
    case "move-seat": page.send({ type: "move", seat: Number(d.seat) }); break;
    case "cancel-table": cancelTable(page); break;
    case "copy-invite": copyInvite(page); break;
    case "share-invite": shareInvite(page.st); break;
    case "reconnect": if (page.socket) page.socket.reconnectNow(); break;
    case "say-toggle": toggleSay(page); break;
    case "say-close": toggleSay(page, false); break;
    case "say": say(page, "phrase", d.phrase); break;
    case "react": say(page, "reaction", d.reaction); break;
    case "mute-seat": muteSeat(page, Number(d.seat)); break;
    case "report-seat": reportSeat(page, Number(d.seat)); break;
    case "hide-phrases": hidePhrases(page); break;
    case "to-fairness":
      event.preventDefault();
      page.el.fair.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth" });
      break;
    case "fair-details":
      event.preventDefault();
      page.closeOverlay({ looking: true });
      page.el.fair.scrollIntoView();
      break;
    case "clear-text":
      page.el.seedInput.value = "";
      useText(page, "");
      page.redraw();
      break;
    case "nav":
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(target.getAttribute("href"));
      break;
    default:
  }
}

function submit(page, event) {
  if (event.target !== page.el.seedForm) return;
  event.preventDefault();
  useText(page, page.el.seedInput.value);
  page.redraw();
}

/** Hover or focus on a hand card previews its takes; on a choice option, focuses it. */
function hover(page, event, entering) {
  const target = actionOf(event);
  if (!target) return;
  // mouseover/mouseout also fire between an element's own children: only entering or
  // leaving it counts.
  if (event.relatedTarget && target.contains(event.relatedTarget)) return;
  const action = target.dataset.action;
  if (action === "play-card") page.update(S.setPreview(page.st, entering ? target.dataset.card : null));
  else if (action === "option" && entering) page.update(S.focusOption(page.st, Number(target.dataset.option)));
  else if (action === "invite-link" && entering && event.type === "focusin") target.select();
}

/** Listen on the page's container (and the document, for keys); returns unbind(). */
export function bindEvents(page) {
  const offs = [];
  const on = (target, type, fn) => {
    target.addEventListener(type, fn);
    offs.push(() => target.removeEventListener(type, fn));
  };
  const box = page.container;
  on(document, "keydown", (e) => onKeydown(page, e));
  on(box, "click", (e) => click(page, e));
  on(box, "submit", (e) => submit(page, e));
  on(box, "input", (e) => { if (e.target === page.el.seedInput) page.seedDirty = true; });
  on(box, "focusin", (e) => hover(page, e, true));
  on(box, "focusout", (e) => hover(page, e, false));
  on(box, "mouseover", (e) => hover(page, e, true));
  on(box, "mouseout", (e) => hover(page, e, false));
  return () => { for (const off of offs) off(); };
}
