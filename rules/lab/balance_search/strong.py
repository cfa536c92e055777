"""One search for several levels of play: the meta targets held under further, stronger agents,
whose games are spent where they decide.

A patch that balances casual play (greedy) can leave skilled play (the planner) a one-deck meta,
and a planner game costs some hundred greedy games. So the first agent — the cheapest — does
what needs many games, and the further agents check what it found:

1. **Baseline** — the unpatched field under each further agent, ``STRONG_BASE_BLOCKS`` a
   matchup, on the search's seeds.
2. **Offsets** — each matchup's difference in log-odds between a further agent and the first,
   pooled over every candidate both have played (each candidate weighted by the further
   agent's games of it; both on the same candidate, so the patch's own effect cancels). The
   model (``model.Model.offsets``) predicts a candidate under a further agent as its
   first-agent prediction plus the offsets, and ranks it by the sum of the excesses under
   every agent: the screening stays the cheap agent's, and the proposals aim at every agent.
3. **Racing** — each round's last cheap rung leaves a few finalists; the best
   ``STRONG_FINALISTS`` of them (by their measured cheap figures plus their predicted figures
   under the further agents) and the round's anchor are played under every further agent on the
   search's seeds (common random numbers: every candidate the same games), ``STRONG_RUNGS``
   blocks a matchup, keeping the better half at each rung. The best by the sum of excesses
   under every agent is the next anchor; what was played refines the offsets.
4. **Re-verification** on fresh seeds (``verify_strong``): the unpatched field and each pick
   under the first agent, ``verify_games`` a matchup; a pick that meets every target there is
   played under each further agent, ``strong_verify_games`` a matchup; one that meets every
   target under every agent is confirmed on twice the games under each, and *holds* when it
   holds under each (``verify.holds``, with each agent's own check size). At most
   ``STRONG_VERIFY_PICKS`` picks are played under the further agents.

**Screening where skill decides** (``StrongCheck.screen``): the moves the first agent screened
are screened under each further agent too, on the same seeds (common random numbers: each move
against the unpatched field on the same deals), on the matchups of the decks holding the changed
card only, by successive halving — ``STRONG_SCREEN_RUNGS`` blocks a matchup, keeping at each rung
the half whose effect under that agent differs most from the first agent's — within
``strong_screen_games``. What a move does under a further agent beyond what it does under the
first (its *skill correction*, in log-odds per matchup) is added to the model's predictions under
that agent, so a lever the first agent hardly feels (a card greedy seldom plays) is found; the
offsets are learnt net of the corrections. Each correction is first shrunk toward zero by its
noise (``shrink``: empirical Bayes), so one measured on few games does not overshoot.

**Who plays for whom** (``searching_agent``): a further agent may be stood in for, while
searching, by a cheaper one the AI ladder (``rules/data/ladder.json``) cannot tell apart from it
— the lean planner for the planner, when their rung's 95 % interval holds 50 % — and
re-verification is always played by the listed agent. ``SearchResult.roles`` says which agent
screened, raced and verified.

``check_agents`` says what is wrong with the agents asked for; ``least_strong_budget`` is the
fewest games the further agents need to search at all (their baseline and one race).

Invariant: as the search itself — the same problem, seeds and budgets give the same search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.ai.agents import AGENT_NAMES, agent_spec
from rules.ai.ratings import load_ladder
from rules.lab.balance_search.evaluate import BLOCK, Tally, logit, matchup_seed, smoothed_rate
from rules.lab.balance_search.memo import Evaluations, field_matchups
from rules.lab.balance_search.objective import GoalError
from rules.lab.balance_search.result import Scored, combined, meta_of, scored_of
from rules.lab.balance_search.shrink import paired_noise, shrink
from rules.lab.balance_search.space import Candidate, Move
from rules.lab.balance_search.verify import CONFIRM_FACTOR, VERIFY_FRONT, holds, to_verify

if TYPE_CHECKING:
    from rules.lab.balance_search.model import Model
    from rules.lab.balance_search.problem import _State

STRONG_BASE_BLOCKS = 4          # the unpatched field under a further agent: 200 games a matchup
STRONG_RUNGS = (1, 2)           # racing under a further agent: 50, then 100 games a matchup
STRONG_FINALISTS = 3            # a round's cheap finalists raced under the further agents
STRONG_VERIFY_PICKS = 3         # picks re-verified under the further agents, at most
MAX_AGENTS = 3
STRONG_SCREEN_RUNGS = (1, 2, 4)   # screening under a further agent: blocks a matchup a rung
# A cheaper agent that may search in place of a listed one, where the ladder shows they play
# alike: (listed, stand-in) → the ladder rung comparing them.
STAND_INS = {"planner": ("lean", "lean-vs-planner")}

# What ``check_agents`` says is wrong (``GoalError.field`` names the parameter).
UNKNOWN_AGENTS = "unknown agent {name!r} (known: {known})."
AGENT_TWICE = "{name!r} is listed twice; list each agent once."
TOO_MANY_AGENTS = "list at most {limit} agents (got {count})."
AGENTS_NEED_META = ("checking a patch under several agents needs the meta objective (got "
                    "{objective!r}).")
STRONG_BUDGET_SHORT = ("{agents} need at least {least:,} games to search this field of {decks} "
                       "decks (their baseline and one race); got {budget:,}.")
BAD_STRONG_VERIFY = "give 100 to 10,000 games a matchup (got {value})."


def agents_in_order(agents: Sequence[str]) -> tuple[str, ...]:
    """The agents fastest first (the first screens and races; the rest check): by the games a
    second of a core plays (``chunk_games``); agents of one pace as listed."""
    return tuple(sorted(agents, key=lambda name: -agent_spec(name).chunk_games))


def least_strong_budget(decks: int, strong_agents: int = 1) -> int:
    """Games the further agents need at the least: each one's baseline and one race of the
    finalists and the anchor at the first rung, on every matchup of ``decks`` decks."""
    matchups = len(field_matchups(decks))
    race = (STRONG_FINALISTS + 1) * STRONG_RUNGS[0]
    return strong_agents * (STRONG_BASE_BLOCKS + race) * BLOCK * matchups


class AgentsError(GoalError):
    """Agents that cannot be searched with: ``code`` (``unknown``, ``twice``, ``too_many``,
    ``needs_meta``, ``budget``, ``verify``) and its ``params`` let a caller say it in its own
    words; ``field`` names the parameter."""

    def __init__(self, code: str, field: str, template: str, **params: object):
        super().__init__(template.format(**params), field)
        self.code, self.params = code, params


def check_agents(agents: Sequence[str], *, objective: str, decks: int, strong_budget: int,
                 strong_verify: int) -> tuple[str, ...]:
    """The agents, fastest first, or AgentsError naming what to fix: ``agents`` (unknown, listed
    twice, too many, several without the meta objective), ``strong_budget_games`` (less than
    ``least_strong_budget``: ``params["least"]``) or ``strong_verify_games``."""
    for name in agents:
        if name not in AGENT_NAMES:
            raise AgentsError("unknown", "agents", UNKNOWN_AGENTS, name=name,
                              known=", ".join(AGENT_NAMES))
    for index, name in enumerate(agents):
        if name in agents[:index]:
            raise AgentsError("twice", "agents", AGENT_TWICE, name=name)
    if len(agents) > MAX_AGENTS:
        raise AgentsError("too_many", "agents", TOO_MANY_AGENTS, limit=MAX_AGENTS,
                          count=len(agents))
    ordered = agents_in_order(agents)
    if len(ordered) < 2:
        return ordered
    if objective not in ("meta", "adapted"):
        raise AgentsError("needs_meta", "agents", AGENTS_NEED_META, objective=objective)
    least = least_strong_budget(decks, len(ordered) - 1)
    if strong_budget < least:
        raise AgentsError("budget", "strong_budget_games", STRONG_BUDGET_SHORT,
                          agents=", ".join(ordered[1:]), least=least, decks=decks,
                          budget=strong_budget)
    if not 100 <= strong_verify <= 10_000:
        raise AgentsError("verify", "strong_verify_games", BAD_STRONG_VERIFY,
                          value=strong_verify)
    return ordered


def searching_agent(agent: str, ladder: Mapping[str, Any] | None = None) -> str:
    """The agent that plays for ``agent`` while searching: its stand-in (``STAND_INS``) when
    the stored ladder's rung between them holds 50 % in its 95 % interval, else itself."""
    stand_in = STAND_INS.get(agent)
    if stand_in is None:
        return agent
    try:
        report = ladder if ladder is not None else load_ladder()
    except (OSError, ValueError):
        return agent
    rate = (report.get(stand_in[1]) or {}).get("win_rate") or {}
    low, high = rate.get("low"), rate.get("high")
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and low <= 0.5 <= high:
        return stand_in[0]
    return agent


def stand_in_figure(agent: str, ladder: Mapping[str, Any] | None = None
                    ) -> dict[str, Any] | None:
    """The ladder's figure behind a stand-in: ``{"agent", "stand_in", "rate", "low", "high",
    "games"}`` (the stand-in's win rate against ``agent``), or None without one."""
    stand_in = STAND_INS.get(agent)
    if stand_in is None:
        return None
    try:
        report = ladder if ladder is not None else load_ladder()
    except (OSError, ValueError):
        return None
    rate = (report.get(stand_in[1]) or {}).get("win_rate")
    if not rate:
        return None
    return {"agent": agent, "stand_in": stand_in[0], "rate": rate["rate"], "low": rate["low"],
            "high": rate["high"], "games": rate.get("games", 0)}


Corrections = dict[Move, dict[tuple[int, int], float]]


class StrongCheck:
    """The further agents' games of one search: a memo each on the search's seeds, played by
    each one's searching agent (``searching_agent``)."""

    def __init__(self, state: _State):
        problem = state.problem
        self.state, self.problem = state, problem
        self.players = {agent: searching_agent(agent) if problem.stand_ins else agent
                        for agent in problem.strong_agents}
        self.memos = {agent: Evaluations(state.memo.evaluator, problem.field.decks,
                                         _seeds(problem.seed), agent=self.players[agent])
                      for agent in problem.strong_agents}
        self.corrections: list[Corrections] = [{} for _ in self.memos]
        self.screen_games = 0
        self.screened: list[int] = []   # moves screened at each rung

    def screen(self, played: Sequence[Move], touched: Mapping[Move, Sequence[tuple[int, int]]],
               cheap: Mapping[Move, Mapping[tuple[int, int], float]],
               cheap_blocks: int | None = None) -> list[Corrections]:
        """Each move's skill correction under every further agent (see the module's
        docstring), shrunk toward zero by its noise (``shrink``): ``played`` in priority order,
        ``touched`` the matchups each changes, ``cheap`` its effect under the first agent
        (measured on ``cheap_blocks`` blocks a matchup; None: every block played). Moves
        dropped at an early rung, or never screened for lack of games, keep no correction."""
        problem, state = self.problem, self.state
        per_move = {m: len(touched[m]) * BLOCK for m in played}
        allowance = problem.strong_screen_games
        first = STRONG_SCREEN_RUNGS[0]
        # the first rung takes at most half the games: the later rungs double on halves
        alive: list[Move] = []
        spend = 0
        for move in played:
            if spend + per_move[move] * first > allowance / 2:
                break
            spend += per_move[move] * first
            alive.append(move)
        found: list[Corrections] = [{} for _ in self.memos]
        self.screened = []
        depth = 0
        for rung in STRONG_SCREEN_RUNGS:
            extra = sum(per_move[m] * (rung - depth) for m in alive) * len(self.memos)
            if not alive or (depth and self.screen_games + extra > allowance):
                break
            for memo in self.memos.values():
                before = memo.games
                for start in range(0, len(alive), 64):
                    batch = alive[start:start + 64]
                    memo.ensure([(m,) for m in batch], rung,
                                sorted({x for m in batch for x in touched[m]}))
                    state.report("screening", screened=min(start + 64, len(alive)),
                                 moves=len(alive), games_each=rung * BLOCK,
                                 agents=[memo.agent])
                self.screen_games += memo.games - before
            self.screened.append(len(alive))
            depth = rung
            gaps: dict[Move, float] = {m: 0.0 for m in alive}
            for index, memo in enumerate(self.memos.values()):
                for move in alive:
                    base = {x: logit(smoothed_rate(memo.tally((), x, rung))) for x in touched[move]}
                    diff = {x: logit(smoothed_rate(memo.tally((move,), x, rung))) - base[x]
                            - cheap[move].get(x, 0.0) for x in touched[move]}
                    found[index][move] = diff
                    gaps[move] += sum(d * d for d in diff.values()) / max(1, len(diff))
            if rung == STRONG_SCREEN_RUNGS[-1]:
                break
            ranked = sorted(alive, key=lambda m: (-gaps[m], m))
            alive = ranked[:max(1, len(ranked) // 2)]
            for corrections in found:           # the dropped keep no correction
                for move in ranked[len(alive):]:
                    corrections.pop(move, None)
        self.corrections = [self._shrunk(memo, corrections, depth, cheap_blocks)
                            for memo, corrections in zip(self.memos.values(), found, strict=True)]
        return self.corrections

    def _shrunk(self, memo: Evaluations, corrections: Corrections, depth: int,
                cheap_blocks: int | None) -> Corrections:
        """One further agent's corrections shrunk by their noise: the paired noise of its
        own measurement (``depth`` blocks a matchup) plus the first agent's."""
        first = self.state.memo

        def pairs(of: Evaluations, blocks: int | None
                  ) -> dict[Move, dict[tuple[int, int], tuple[list[Tally], list[Tally]]]]:
            return {move: {x: (of.blocks[of.key((move,), x)][:blocks],
                               of.blocks[of.key((), x)][:blocks]) for x in per}
                    for move, per in corrections.items()}

        strong_noise = paired_noise(pairs(memo, depth))
        cheap_noise = paired_noise(pairs(first, cheap_blocks))
        noise = {move: {x: v + cheap_noise[move][x] for x, v in per.items()}
                 for move, per in strong_noise.items()}
        return shrink(corrections, noise)

    @property
    def games(self) -> int:
        return sum(memo.games for memo in self.memos.values())

    def out_of_budget(self) -> bool:
        """The search's games (baseline and races; screening has its own allowance) spent."""
        return self.games - self.screen_games >= self.problem.strong_budget_games

    def baseline(self) -> None:
        problem = self.problem
        for agent, memo in self.memos.items():
            memo.ensure([()], STRONG_BASE_BLOCKS)
            unpatched = scored_of((), memo.tallies((), STRONG_BASE_BLOCKS), problem.band,
                                  problem.goal)
            self.state.report("baseline", baseline=unpatched.summary(), agents=[agent])

    def offsets(self) -> list[list[float]]:
        """Per further agent, per matchup: the pooled difference in log-odds from the first
        agent (0 for a matchup no candidate has been played on by both yet)."""
        cheap = self.state.memo
        out = []
        for index, memo in enumerate(self.memos.values()):
            corrections = self.corrections[index] if index < len(self.corrections) else {}
            sums = {m: [0.0, 0.0] for m in cheap.matchups}
            for key, blocks in memo.blocks.items():
                first = cheap.blocks.get(key)
                if not first or not blocks:
                    continue
                strong_rate = smoothed_rate(_sum(blocks))
                cheap_rate = smoothed_rate(_sum(first))
                weight = float(len(blocks))
                matchup = (key[1], key[2])
                skill = sum(corrections.get(m, {}).get(matchup, 0.0) for m in key[0])
                entry = sums[matchup]
                entry[0] += weight * (logit(strong_rate) - logit(cheap_rate) - skill)
                entry[1] += weight
            out.append([total / weight if weight else 0.0
                        for total, weight in (sums[m] for m in cheap.matchups)])
        return out

    def scored(self, moves: Candidate, cheap: Scored, blocks: int) -> Scored:
        """``moves`` scored under every agent (``cheap``: its first agent's score), remembered
        in ``state.combined`` when it was played at least as much as the one kept."""
        problem = self.problem
        under = [(agent, scored_of(moves, memo.tallies(moves, blocks), problem.band,
                                   problem.goal)) for agent, memo in self.memos.items()]
        out = combined(cheap, under)
        known = self.state.combined.get(moves)
        if known is None or known.games <= out.games:
            self.state.combined[moves] = out
        return out

    def race(self, finalists: Sequence[Scored], anchor: Candidate, cheap_blocks: int,
             model: Model, round_number: int) -> Scored:
        """The finalists of a round's cheap racing and its anchor, raced under every further
        agent; the best by the sum of excesses (see the module's docstring)."""
        state = self.state
        ranked = sorted(finalists, key=lambda s: (_predicted(model, s), s.rank))
        alive = [s.moves for s in ranked[:STRONG_FINALISTS]]
        if anchor not in alive:
            alive.append(anchor)
        cheap = {moves: state.score(moves, cheap_blocks) for moves in alive}
        for rung in STRONG_RUNGS:
            for memo in self.memos.values():
                memo.ensure(alive, rung)
            scored = sorted((self.scored(m, cheap[m], rung) for m in alive), key=lambda s: s.rank)
            state.report("racing", round=round_number, rung_games=rung * BLOCK,
                         candidates=len(alive), agents=list(self.memos))
            if rung == STRONG_RUNGS[-1] or self.out_of_budget():
                break
            keep = [s.moves for s in scored[:max(2, len(scored) // 2)]]
            alive = keep + ([anchor] if anchor not in keep else [])
        model.offsets = self.offsets()
        return scored[0]

    def roles(self) -> dict[str, dict[str, str]]:
        """Per further agent, who screened, raced and verified for it."""
        return {agent: {"screened": player, "raced": player, "verified": agent}
                for agent, player in self.players.items()}


def _seeds(seed: int) -> Callable[[int, int], int]:
    return lambda a, b: matchup_seed(seed, a, b)


def _sum(blocks: Sequence[Tally]) -> Tally:
    total = blocks[0]
    for block in blocks[1:]:
        total = total + block
    return total


def _predicted(model: Model, scored: Scored) -> float:
    """A measured candidate's excess under every agent: its measured first-agent matchups,
    offset for each further agent (``model.Model.refine``, equilibria included)."""
    logits = [logit(smoothed_rate(scored.tallies[m])) for m in model.matchups]
    prediction = model.refine(model.predict(scored.moves, logits, scored.moves))
    return prediction.excess


def verify_strong(state: _State) -> tuple[dict[Candidate, Scored], int, int]:
    """The unpatched field and the picks on fresh seeds under every agent (see the module's
    docstring); the verified scores, and the games the first and the further agents played."""
    problem = state.problem
    goal = problem.goal
    fresh = Evaluations(state.memo.evaluator, problem.field.decks,
                        lambda a, b: matchup_seed(problem.seed, a, b, fresh=1))
    strong = {agent: Evaluations(state.memo.evaluator, problem.field.decks,
                                 lambda a, b: matchup_seed(problem.seed, a, b, fresh=1),
                                 agent=agent) for agent in problem.strong_agents}
    blocks = _blocks(problem.verify_games)
    strong_blocks = _blocks(problem.strong_verify_games)

    def report(memo: Evaluations, moves: Candidate, depth: int) -> Scored:
        tallies = memo.tallies(moves, depth)
        meta = meta_of(tallies, len(problem.field.decks), goal.epsilon, problem.meta_resamples)
        return replace(scored_of(moves, tallies, problem.band, goal), report=meta)

    def play(moves: Candidate, factor: int, under: bool) -> Scored:
        state.report("verifying", candidates=1, games_each=factor * blocks * BLOCK,
                     verified_games=fresh.games + sum(m.games for m in strong.values()))
        fresh.ensure([moves], factor * blocks)
        first = report(fresh, moves, factor * blocks)
        if not under:
            return first
        others = []
        for agent, memo in strong.items():
            memo.ensure([moves], factor * strong_blocks)
            others.append((agent, report(memo, moves, factor * strong_blocks)))
        return combined(first, others)

    out: dict[Candidate, Scored] = {(): play((), 1, True)}
    checked = 0
    for index, scored in enumerate(strong_picks(state)):
        moves = scored.moves
        if index and state.out_of_time():
            break
        first = play(moves, 1, False)
        out[moves] = first
        if not first.meets_all(goal) or checked == STRONG_VERIFY_PICKS:
            continue
        checked += 1
        out[moves] = every = play(moves, 1, True)
        if every.meets_all(goal):
            every = play(moves, CONFIRM_FACTOR, True)
            own = replace(every, under=(), outside=every.outside_own)
            held = holds(own, goal, problem.verify_games) and all(
                holds(s, goal, problem.strong_verify_games) for _, s in every.under)
            out[moves] = replace(every, holds=held)
            if held:
                break
    state.report("done", verified=[s.summary() for s in out.values()],
                 verified_games=fresh.games + sum(m.games for m in strong.values()))
    return out, fresh.games, sum(m.games for m in strong.values())


def strong_picks(state: _State) -> list[Scored]:
    """The picks to re-verify (``verify.to_verify``); when no patch raced under every agent
    beat the unpatched field there, the best of them by the summed excess all the same, so a
    search never ends without a patch checked on fresh seeds."""
    picks = to_verify(state)
    if picks:
        return picks
    top = max((s.games for s in state.combined.values() if s.moves), default=0)
    raced = [s for s in state.combined.values() if s.moves and s.games == top]
    return sorted(raced, key=lambda s: s.rank)[:VERIFY_FRONT]


def _blocks(games: int) -> int:
    return max(1, -(-games // BLOCK))


__all__ = ["AgentsError", "StrongCheck", "agents_in_order", "check_agents", "least_strong_budget",
           "searching_agent", "stand_in_figure", "verify_strong"]
