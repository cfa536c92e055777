"""The balance search: the smallest card changes that bring every matchup of a field near 50 %.

1. **Baseline** — the unpatched field, every matchup, on the search's seeds.
2. **Screening** — every allowed move alone, on the matchups it touches, same seeds: its effect
   on each matchup's log-odds (``model``).
3. **Rounds** of model-guided local search: from the best candidate measured so far (the
   anchor) the model proposes candidates a few edits away; **racing** (successive halving)
   plays them for real on the search's seeds at 100, 200, 400 then 800 games a matchup,
   keeping the better half at each rung, so clearly bad candidates stop early. The best becomes
   the next anchor.
   **Re-screening**: when ``PATIENCE`` rounds bring no better anchor and the budget allows, the
   single edits of that anchor (each move added or swapped in, each of its moves dropped) are
   played again *from the anchor*, best predicted first, and their measured effects replace the
   screened ones: the model is re-linearised where the search stands. Effects that do not add up
   — an attribute change's worth depends on the attributes of the minions that meet it — are
   measured where they are used. An anchor is re-screened once; the rounds stop when a
   re-screened anchor stalls again or the budget is spent.
4. **Re-verification** — the Pareto front of what was raced (changes against worst distance
   from 50 %) is played again on fresh seeds, ``verify_games`` a matchup; the best verified
   patch is the one with the fewest changes whose matchups all lie in the band (or else the
   one whose worst matchup is nearest 50 %; on a tie, fewer matchups outside the band).
   Meta: one pick after another, a pick that meets every target confirmed on twice the games
   and trusted only when a fresh check would still meet them (``verify``).

Objectives (``objective``): **band** — while searching, the sum of squared distances of matchups
beyond the aim (the band less a margin, so a patch found holds on fresh seeds), then the worst
matchup's distance from 50 %, the number of changes and their size; the front is changes against
the worst distance. **meta** — every deck's field win rate inside the field band, every matchup
inside the loose matchup band and the ε-equilibrium giving every deck at least the minimum
share: the sum of squared distances beyond each aim (and the share's weighted shortfall), then
the worst deck's field win rate's distance from 50 %, the changes and their size; the front is
changes against that excess, then the worst field distance; the verified front is chosen
among the candidates that meet the aims, fewest changes first, and the best verified patch is
the one with the fewest changes that meets every target on fresh seeds. Every verified patch
(and the unpatched field) carries its field's meta (``rules.lab.meta``: field win rates, both
equilibria, resampled on its seat-swapped pairs).
Invariant: the same problem, seed and game budget give the same search, move for move (every
evaluation uses the same seeds for every candidate; no clock decides anything unless a
``should_stop`` says so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from rules.engine.cards import CardDef, DeckList
from rules.lab.balance_search.evaluate import (
    BLOCK,
    Evaluator,
    logit,
    matchup_seed,
    smoothed_rate,
)
from rules.lab.balance_search.memo import Evaluations, Matchup
from rules.lab.balance_search.model import Model
from rules.lab.balance_search.problem import Problem, Progress, _State
from rules.lab.balance_search.result import Scored, SearchResult
from rules.lab.balance_search.space import (
    Candidate,
    Move,
    edits_between,
    key_cards,
    screened_moves,
    space_moves,
)
from rules.lab.balance_search.strong import StrongCheck, verify_strong
from rules.lab.balance_search.verify import (
    VERIFY_FRONT as VERIFY_FRONT,  # balance.search.problem reads it
)
from rules.lab.balance_search.verify import verify
from rules.lab.patches import is_ability_path

BASE_BLOCKS = 8                 # 400 games a matchup for the unpatched field
RUNGS = (2, 4, 8, 16)           # racing: blocks a matchup at each rung (100 … 800 games)
SCREEN_SHARE = 0.3              # of the game budget, at most, for screening
PATIENCE = 2                    # rounds without a better anchor before the search stops
RESCREEN_SHARE = 0.5            # of the budget left, at most, for one re-screening
META_TOP_SHARE = 20             # meta: the last rung, one candidate in this many of the budget
META_MIN_TOP = 8                # meta: blocks a matchup at the last rung, however small the budget
MIN_SCREEN_CARDS = 3            # meta: key cards a deck screened however small the budget

def scaled(problem: Problem) -> Problem:
    """The racing rungs and baseline a budget affords: the last rung is played by about one
    candidate in forty of the budget's games (at most 800 games, ``RUNGS``). Meta: one in
    twenty, and at least 400 games — a deck's field win rate is measured on all its matchups,
    and a search that picks the best of hundreds of candidates on fewer games picks luck."""
    matchups = len(problem.field.decks) * (len(problem.field.decks) - 1) // 2
    share = META_TOP_SHARE if problem.objective == "meta" else 40
    top = max(1, min(RUNGS[-1], problem.budget_games // (matchups * BLOCK * share)))
    if problem.objective == "meta":
        top = max(top, META_MIN_TOP)
    top = 1 << (top.bit_length() - 1)
    rungs = problem.rungs or tuple(r for r in RUNGS if r <= top) or (1,)
    base = problem.base_blocks or max(2, min(BASE_BLOCKS, top))
    return replace(problem, rungs=rungs, base_blocks=base)


def _scale(problem: Problem) -> tuple[tuple[int, ...], int]:
    """The racing rungs and baseline blocks of a ``scaled`` problem."""
    assert problem.rungs is not None and problem.base_blocks is not None, "not scaled"
    return problem.rungs, problem.base_blocks


def balance_search(problem: Problem, evaluator: Evaluator, *, progress: Progress | None = None,
                   should_stop: Callable[[], bool] | None = None) -> SearchResult:
    """Search, then re-verify the front on fresh seeds (see the module's docstring)."""
    problem = scaled(problem)
    problem.goal.check(len(problem.field.decks))
    decks, seed = problem.field.decks, problem.seed
    memo = Evaluations(evaluator, decks, lambda a, b: matchup_seed(seed, a, b))
    state = _State(problem, memo, space_moves(problem.space, problem.field.cards), progress,
                   should_stop)
    base_blocks = _scale(problem)[1]
    memo.ensure([()], base_blocks)
    baseline = state.score((), base_blocks)
    state.raced.pop(())   # the unpatched field is no candidate; it anchors the first round
    state.report("baseline", baseline=baseline.summary())
    strong: StrongCheck | None = None
    if problem.strong_agents:
        state.strong = strong = StrongCheck(state)
        strong.baseline()
    model, blocks = _screen(state)
    rescreened: set[Candidate]
    anchor, idle, rescreened = baseline, 0, {()}
    if problem.start:               # a live patch: the rounds edit it (a candidate itself)
        memo.ensure([problem.start], base_blocks)
        anchor = state.score(problem.start, base_blocks)
    for round_number in range(1, problem.rounds + 1):
        if round_number > 1 and state.out_of_budget():
            break
        if idle == PATIENCE:
            if anchor.moves in rescreened:
                break
            rescreened.add(anchor.moves)
            model = _rescreen(state, model, anchor, blocks)
            idle = 0
        best = _round(state, model, anchor, round_number)
        idle = idle + 1 if best.moves == anchor.moves else 0
        anchor = best
    search_games = memo.games
    strong_verified = 0
    if state.strong is not None:
        verified, verify_games, strong_verified = verify_strong(state)
    else:
        verified, verify_games = verify(state)
    return SearchResult(band=problem.band, baseline=verified.pop(()),
                        front=sorted(verified.values(), key=lambda s: s.changes),
                        searched=sorted(state.raced.values(), key=lambda s: (-s.games, s.rank)),
                        games_searched=search_games, games_verified=verify_games,
                        evaluations=state.evaluations, moves_screened=state.screened,
                        goal=problem.goal if problem.objective != "band" else None,
                        agents=(problem.field.agent, *problem.strong_agents)
                        if problem.strong_agents else (),
                        strong_games_searched=state.strong.games if state.strong else 0,
                        strong_games_verified=strong_verified,
                        roles=strong.roles() if strong else {},
                        strong_games_screened=strong.screen_games if strong else 0,
                        strong_moves_screened=tuple(strong.screened) if strong else ())


def _screen(state: _State) -> tuple[Model, int]:
    """The key cards' moves, screened in passes of one more block on every matchup each one
    touches, while the screening share of the budget lasts; effects in log-odds. Returns the
    model and the blocks a matchup each move was screened on."""
    memo, problem = state.memo, state.problem
    per_deck = problem.screen_cards
    if problem.objective == "meta" and per_deck:
        per_deck = _affordable_cards(state)
    keys = set(key_cards(problem.field.decks, problem.field.cards, per_deck,
                         problem.first_cards, problem.lead_cards)) if per_deck else None
    moves, played, touched, per_pass = _screening_plan(state, keys)
    blocks, base_blocks = 0, _scale(problem)[1]
    while blocks < base_blocks and (blocks == 0 or (
            memo.games + per_pass <= problem.budget_games * SCREEN_SHARE
            and not state.out_of_budget())):
        blocks += 1
        for start in range(0, len(played), 64):
            batch = played[start:start + 64]
            memo.ensure([(m,) for m in batch], blocks,
                        sorted({x for m in batch for x in touched[m]}))
            state.report("screening", screened=min(start + 64, len(played)),
                         moves=len(played), games_each=blocks * BLOCK)
    state.evaluations += len(played)
    state.screened = len(played)
    measured = {m: {x: logit(smoothed_rate(memo.tally((m,), x, blocks)))
                    - logit(smoothed_rate(memo.tally((), x, blocks))) for x in touched[m]}
                for m in played}
    plan = screened_moves(moves)
    effects = {move: {x: d * share for x, d in measured[far].items()}
               for move, (far, share) in plan.items()}
    corrections: list[dict[Move, dict[Matchup, float]]] = []
    if state.strong is not None:
        order = _screen_priority(problem.field.decks, problem.field.cards, keys,
                                 problem.first_cards, problem.lead_cards)
        ranked = sorted(played, key=lambda m: (order.get(m.card, len(order)),
                                               not is_ability_path(m.field), m))
        found = state.strong.screen(ranked, touched, measured, blocks)
        corrections = [{move: {x: d * share for x, d in agent[far].items()}
                        for move, (far, share) in plan.items() if far in agent}
                       for agent in found]
    offsets = state.strong.offsets() if state.strong is not None else ()
    model = Model(memo.matchups, effects, moves, problem.band, problem.goal, offsets)
    model.set_corrections(corrections)
    return model, blocks


def _screen_priority(decks: Sequence[DeckList], cards: Mapping[str, CardDef],
                     keys: set[str] | None, first: Sequence[Sequence[str]] = (),
                     lead: Sequence[Sequence[str]] = ()) -> dict[str, int]:
    """The order the further agents screen cards in: each deck's hero, then its first cards
    (``key_cards``), the decks taking turns (a card's rank within its deck first)."""
    out: dict[str, int] = {}
    ranked = [key_cards([deck], cards, len(deck.cards), first[k:k + 1], lead[k:k + 1])
              for k, deck in enumerate(decks)]
    for depth in range(max((len(r) for r in ranked), default=0)):
        for codes in ranked:
            if depth < len(codes) and codes[depth] not in out and (
                    keys is None or codes[depth] in keys):
                out[codes[depth]] = len(out)
    return out


def _screening_plan(state: _State, keys: set[str] | None
                    ) -> tuple[list[Move], list[Move], dict[Move, list[Matchup]], int]:
    """The moves of the key cards, the moves played for them, the matchups each touches and
    the games one pass (a block on each) costs."""
    memo = state.memo
    moves = [m for m in state.moves if keys is None or m.card in keys]
    plan = screened_moves(moves)
    played = list(dict.fromkeys(far for far, _ in plan.values()))
    touched = {m: [x for x in memo.matchups if memo.key((m,), x)[0]] for m in played}
    return moves, played, touched, sum(len(x) for x in touched.values()) * BLOCK


def _affordable_cards(state: _State) -> int:
    """Meta: the most key cards a deck (up to ``screen_cards``, at least ``MIN_SCREEN_CARDS``)
    whose single pass of screening fits the screening share of the budget — a small budget
    keeps its games for racing rather than spending them all on a first pass."""
    problem = state.problem
    fits = MIN_SCREEN_CARDS
    for per_deck in range(MIN_SCREEN_CARDS, problem.screen_cards + 1):
        keys = set(key_cards(problem.field.decks, problem.field.cards, per_deck,
                             problem.first_cards, problem.lead_cards))
        if _screening_plan(state, keys)[3] <= problem.budget_games * SCREEN_SHARE:
            fits = per_deck
    return fits


def _rescreen(state: _State, model: Model, anchor: Scored, blocks: int) -> Model:
    """The model re-linearised at ``anchor``: its single edits played from it on the matchups
    each touches, ``blocks`` a matchup, the best predicted first while ``RESCREEN_SHARE`` of the
    budget left lasts; a measured edit's effect replaces the screened one.

    Drops come first (``A − m`` measures ``m``'s own effect where it stands), then adds
    (``A + m − A``) and swaps (``A − h + m`` against ``A``, plus ``h``'s effect, since the model
    takes ``h``'s effect away when it swaps ``m`` in). A nearer number step keeps its share of
    its farthest step's effect."""
    memo, problem = state.memo, state.problem
    held = {m.slot: m for m in anchor.moves}
    memo.ensure([anchor.moves], blocks)
    base = {x: logit(smoothed_rate(memo.tally(anchor.moves, x, blocks))) for x in memo.matchups}
    plan = screened_moves(model.moves)
    logits = [base[x] for x in memo.matchups]
    singles = list(dict.fromkeys(far for far, _ in plan.values() if far not in anchor.moves))
    ranked = sorted(singles, key=lambda m: model.predict(anchor.moves, logits,
                                                          _edit(anchor.moves, m)).rank)
    touched = {m: [x for x in memo.matchups if memo.key((m,), x)[0]]
               for m in (*anchor.moves, *ranked)}
    cost = {m: len(touched[m]) * blocks * BLOCK for m in touched}
    allowance = max(0, problem.budget_games - memo.games) * RESCREEN_SHARE
    chosen: list[Move] = []
    for move in ranked:
        if cost[move] > allowance:
            break
        allowance -= cost[move]
        chosen.append(move)
    edits = [(m, tuple(x for x in anchor.moves if x != m)) for m in anchor.moves] + \
            [(m, _edit(anchor.moves, m)) for m in chosen]
    done = 0
    while done < len(edits) and (done == 0 or not state.out_of_budget()):
        batch = edits[done:done + 64]
        memo.ensure([moves for _, moves in batch], blocks,
                    sorted({x for m, _ in batch for x in touched[m]}))
        done += len(batch)
        state.report("screening", screened=done, moves=len(edits), games_each=blocks * BLOCK)
    edits = edits[:done]            # the clock may stop it between batches (drops come first)
    state.evaluations += len(edits)

    def change(moves: Candidate, move: Move) -> dict[tuple[int, int], float]:
        return {x: logit(smoothed_rate(memo.tally(moves, x, blocks))) - base[x]
                for x in touched[move]}

    measured: dict[Move, dict[tuple[int, int], float]] = {}
    for move, moves in edits[:len(anchor.moves)]:
        measured[move] = {x: -d for x, d in change(moves, move).items()}
    for move, moves in edits[len(anchor.moves):]:
        d = change(moves, move)
        was = held.get(move.slot)
        if was is not None:
            mine = measured.get(was, model.effect(was))
            d = {x: d.get(x, 0.0) + mine.get(x, 0.0) for x in {*d, *mine}}
        measured[move] = d
    effects = {move: model.effect(move) for move in model.moves}
    for move, (far, share) in plan.items():
        if far in measured and move not in anchor.moves:
            effects[move] = {x: d * share for x, d in measured[far].items()}
    effects.update({m: measured[m] for m in anchor.moves})
    out = Model(memo.matchups, effects, model.moves, problem.band, problem.goal, model.offsets)
    out.corrections = model.corrections
    return out


def _edit(anchor: Candidate, move: Move) -> Candidate:
    """``anchor`` with ``move`` added, or swapped in for the anchor's move on its slot."""
    return tuple(sorted((*(m for m in anchor if m.slot != move.slot), move)))


def _within_edits(problem: Problem) -> Callable[[Candidate], bool] | None:
    """``Problem.max_edits``: candidates at most that many edits from the patch the search
    starts from (None: any)."""
    cap = problem.max_edits
    if cap is None:
        return None
    return lambda moves: edits_between(problem.start, moves) <= cap


def _round(state: _State, model: Model, anchor: Scored, number: int) -> Scored:
    problem = state.problem
    logits = [logit(smoothed_rate(anchor.tallies[m])) for m in state.memo.matchups]
    proposals = model.propose(anchor.moves, logits, max_changes=problem.max_changes,
                              count=problem.proposals, exclude=frozenset(state.raced),
                              allowed=_within_edits(problem))
    alive = [anchor.moves] + [p.moves for p in proposals]
    state.evaluations += len(proposals)
    rungs = _scale(problem)[0]
    for rung in rungs:
        state.memo.ensure(alive, rung)
        scored = sorted((state.score(moves, rung) for moves in alive), key=lambda s: s.rank)
        state.report("racing", round=number, rung_games=rung * 50, candidates=len(alive))
        if rung == rungs[-1] or (number > 1 and state.out_of_budget()):
            if state.strong is not None:
                return state.strong.race(scored, anchor.moves, rung, model, number)
            return scored[0]
        keep = [s.moves for s in scored[:max(2, len(scored) // 2)]]
        alive = keep + ([anchor.moves] if anchor.moves not in keep else [])  # the yardstick
    raise AssertionError("unreachable")
