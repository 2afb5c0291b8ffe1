// The floor in the order its cards were laid, pure like state.js (which keeps it in
// `state.floorOrder`): the server sends the floor in canonical order; the page keeps each card
// where it was laid and appends new ones, so nothing jumps when a card is taken.

/** The floor in the order its cards were laid: the server sends it in canonical order; kept
 * cards stay where they were, newly laid ones are appended. */
export function floorOrder(prev, game, order = []) {
  const v = game.view;
  const floor = v.floor;
  if (!prev || prev.view.round !== v.round) {
    const start = v.plays.length ? floor.slice()
      : (v.opening_floor.length ? v.opening_floor.filter((c) => floor.includes(c)) : floor.slice());
    for (const c of floor) if (!start.includes(c)) start.push(c);
    return start;
  }
  const kept = order.filter((c) => floor.includes(c));
  const added = [];
  for (const play of v.plays.slice(prev.view.plays.length)) {
    if (!play.take.length && floor.includes(play.card)) added.push(play.card);
  }
  for (const c of floor) if (!kept.includes(c) && !added.includes(c)) added.push(c);
  return kept.concat(added);
}
