/* A run's time estimate in the browser: the arithmetic of
 * simulations.agents.strength.estimate_seconds on the figures
 * simulations.agents.strength.estimate_inputs gives (tests/simulations/
 * test_run_estimate.py runs both on the same runs and expects the same seconds). The costs
 * besides the games (start, a chunk's bookkeeping, finish) are what this deployment observed
 * on its finished runs, so a 20-game run is not estimated at a few milliseconds. On a busy
 * machine (data.load, the load's factor, from data.range_from on) the estimate is a range. */
(function (root) {
  "use strict";

  // Chunks one worker process plays one after another (simulations.run_costs.rounds).
  function rounds(chunks, workers) {
    return Math.ceil(Math.max(1, chunks) / Math.max(1, Math.min(workers, chunks)));
  }

  // Games per chunk of a pairing (simulations.agents.strength.chunk_games).
  function chunkGames(data, a, b, games) {
    var size = Math.min(data.chunk[a][b], Math.max(2, Math.ceil(games / data.min_chunks)));
    return Math.max(2, size - size % 2);
  }

  function runEstimate(data, a, b, perPairing, pairings) {
    var games = perPairing * pairings;
    var chunks = Math.max(1, pairings * Math.ceil(perPairing / chunkGames(data, a, b, perPairing)));
    var costs = data.costs;
    var turns = rounds(chunks, data.workers);
    var perGame = data.games[a][b];
    var overhead = costs.start + costs.finish + turns * costs.chunk;
    var seconds = overhead + turns * perGame * games / chunks;
    // The high end on a busy machine (simulations.agents.strength.estimate_range).
    var load = data.load || 1;
    var high = load < (data.range_from || Infinity) ? seconds : seconds * load;
    return {seconds: seconds, high: high, games: games, chunks: chunks, perGame: perGame,
            overhead: overhead};
  }

  root.cardlabRunEstimate = runEstimate;
  if (typeof module !== "undefined" && module.exports) { module.exports = runEstimate; }
})(typeof window !== "undefined" ? window : this);
