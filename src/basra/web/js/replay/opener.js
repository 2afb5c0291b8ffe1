// /replay without a match: open a record file (basra-record/1: the match-end screen and the
// history download one), by the file picker or by dropping it on the page. The file goes to
// the server as it is (POST /api/replays), which checks it as `basra replay` does; a record
// it cannot replay is shown as its one-line error, naming the round and the play.

import { h, replace } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { errorText, link, spinner } from "../lib/ui.js";
import { MAX_RECORD_BYTES, postRecord, problemPlace } from "./data.js";

/** The alert for a record the server refused: what, where (round and play), its line. */
function refusal(err) {
  if (err.code !== "replay/bad_record") {
    return h("div", { class: "replay-file-error", role: "alert", dataset: { code: err.code } },
      h("strong", null, t("replay.file.failed")), " ", errorText(err));
  }
  const place = problemPlace(err.message);
  const where = !place ? t("replay.file.where_record")
    : place.play === null ? t("replay.file.where_round", { round: num(place.round) })
      : t("replay.file.where_play", { round: num(place.round), play: num(place.play) });
  return h("div", { class: "replay-file-error", role: "alert", dataset: { code: err.code, round: place ? String(place.round) : null, play: place && place.play !== null ? String(place.play) : null } },
    h("strong", { class: "replay-file-error-title" }, t("replay.file.bad")),
    h("p", { class: "replay-file-where" }, where),
    h("p", { class: "replay-file-line" }, h("code", { dir: "ltr" }, err.message)));
}

/**
 * The opener, built once (its own listeners). `opened(replay, name)` gets a replay made from
 * a file; `dropTarget` is where a file may be dropped (the whole page). Returns
 * {el, relabel(), hasNews(), detach()}.
 */
export function fileOpener(dropTarget, opened) {
  const el = h("section", { class: "panel replay-opener", "aria-labelledby": "replay-open-title" });
  // null, {kind: "reading", name}, {kind: "too_big", name} or {kind: "refused", err}
  let status = null;

  const statusLine = () => {
    if (!status) return null;
    if (status.kind === "reading") return h("p", { class: "muted", role: "status" }, spinner(), " ", t("replay.file.reading", { name: status.name }));
    if (status.kind === "too_big") {
      return h("div", { class: "replay-file-error", role: "alert", dataset: { code: "too_big" } },
        t("replay.file.too_big", { name: status.name }));
    }
    return refusal(status.err);
  };

  const open = async (file) => {
    if (!file || (status && status.kind === "reading")) return;
    if (file.size > MAX_RECORD_BYTES) {
      status = { kind: "too_big", name: file.name };
      draw();
      return;
    }
    status = { kind: "reading", name: file.name };
    draw();
    try {
      const replay = await postRecord(await file.text());
      status = null;
      draw();
      opened(replay, file.name);
    } catch (err) {
      status = err.code === "request/too_large" ? { kind: "too_big", name: file.name } : { kind: "refused", err };
      draw();
    }
  };

  const input = h("input", {
    type: "file", id: "replay-file", class: "replay-file-input", accept: ".json,application/json",
    on: { change: () => { open(input.files[0]); input.value = ""; } },
  });

  const draw = () => {
    // News of a file (picked or dropped while a replay is shown) opens the opener.
    if (status) el.hidden = false;
    replace(el,
      h("h2", { id: "replay-open-title" }, t("replay.file.title")),
      h("p", null, t("replay.file.intro")),
      h("p", { class: "hint" }, t("replay.file.where_from"), " ", link("/history", null, t("history.title"))),
      h("div", { class: "replay-drop" },
        input,
        h("label", { for: "replay-file", class: "btn primary replay-file-button" }, t("replay.file.choose")),
        h("span", { class: "muted replay-drop-text" }, t("replay.file.drop"))),
      statusLine());
  };

  const over = (event) => {
    if (!event.dataTransfer || !Array.from(event.dataTransfer.types || []).includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    dropTarget.classList.add("replay-dragging");
  };
  const leave = (event) => {
    if (event.target === dropTarget || !dropTarget.contains(event.relatedTarget)) dropTarget.classList.remove("replay-dragging");
  };
  const drop = (event) => {
    if (!event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    dropTarget.classList.remove("replay-dragging");
    open(event.dataTransfer.files[0]);
  };
  dropTarget.addEventListener("dragover", over);
  dropTarget.addEventListener("dragleave", leave);
  dropTarget.addEventListener("drop", drop);
  draw();
  return {
    el,
    relabel: draw,
    /** Whether it has something to say (a file being read, or refused). */
    hasNews: () => status !== null,
    detach() {
      dropTarget.removeEventListener("dragover", over);
      dropTarget.removeEventListener("dragleave", leave);
      dropTarget.removeEventListener("drop", drop);
    },
  };
}
