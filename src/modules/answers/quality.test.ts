// The quality floor of answers (extractive): on every labelled split of test/fixtures/answers, the
// share of answerable questions answered with a correct source and of unanswerable ones answered
// no-evidence may not fall below what the engine reached (docs/answers.md), less a little.
// Raise floors when the engine improves; a new claim needs a new sealed batch.
import { describe, expect, it } from 'vitest'
import { evaluateAnswers } from '../../../eval/answers.ts'

// Measured (the dialogue pass: a turn read with the turn before it): 26/27 11/12 · 27/28 11/12 ·
// 34/38 9/12 · 20/33 11/11 · 16/29 7/10. Every split is seen now; leave-one-split-out (threshold
// calibration on the other splits, `npm run eval -- --answers --calibrate`) pools 123/155 = 0.79 and
// 49/57 = 0.86, and the first runs of new batches were far lower (docs/answers.md). Sixth pass, six
// splits: 135/188 = 0.72 and 57/70 = 0.81 (was 132/188 and 57/70). Seventh pass (Chinese words by
// jieba; three turns read after a hit), seven splits: 159/221 = 0.72 and 64/82 = 0.78 (was 151/221 and 64/82).
// Eighth pass (details read from the text; score gate 0.45), eight splits: 182/254 = 0.72 and 72/94 = 0.77
// (was 160/254 = 0.63 and 69/94 = 0.73). Ninth pass (a Chinese answer may cite several passages; the turn
// that settles a subject, found by the extraction engine): 187/254 = 0.74 and 72/94 = 0.77. Tenth pass, nine
// splits (held-out-8 joined): 180/287 = 0.63 and 80/106 = 0.75 (was 170/287 and 80/106). Eleventh pass (a learned
// ranker and no-evidence gate replace the hand-set thresholds; floors are its in-sample figures, fitted on all ten
// splits): leave-one-split-out over ten splits 180/320 = 0.56 and 90/118 = 0.76 (the rule engine 184/320 and 81/118);
// in-sample answerable falls on the splits the rules were tuned on, unanswerable rises on most (docs/answers.md).
// Twelfth pass: a refit with held-out-10 seen (leave-one-split-out 205/353 · 97/130) was measured and not shipped: its
// gate declined a memory entry's answer and its keep of 3 quoted an unrelated turn in the HTTP tests; these floors are
// the eleventh-pass weights' (docs/answers.md).
// Thirteenth pass: Chinese interrogatives no longer content, a guard for passages other than transcript turns, refit on
// twelve splits (held-out-10 and -11 seen): leave-one-split-out 227/386 · 102/142 (the same refit without this pass's
// changes 223/386 · 103/142); floors are the new weights' in-sample figures, less a little. In-sample against the
// eleventh-pass weights it loses held-out 10 → 9/12 unanswerable, held-out-2 34 → 33/38 and held-out-5 15 → 14/33
// answerable, held-out-10 6 → 5/12 and held-out-11 8 → 7/12 unanswerable (those two are now trained on, their figures claim nothing).
// Fourteenth pass: the labelled workspace holds each meeting's extracted work as pending proposals (the product answers from
// them, citing the turns they were made from); the thirteenth-pass weights kept (a refit on it was measured and not shipped):
// over all fourteen splits 246 · 129 → 244 · 128, the floors that moved say so (docs/answers.md, "Fourteenth pass").
const FLOORS: Record<string, { answerable: number; unanswerable: number }> = {
  // unanswerable 10/12 since the meetings of extraction's held-out-4 joined as distractors (was 11/12)
  // learned ranker and gate (eleventh pass), in-sample: 22/27 · 12/12 (was 0.96 · 0.83)
  // thirteenth pass (refit on twelve splits), in-sample: 22/27 · 12/12 (same)
  development: { answerable: 0.81, unanswerable: 0.99 },
  // unanswerable 9/12 since held-out-7's meetings joined as distractors (was 11/12)
  // learned ranker and gate (eleventh pass), in-sample: 25/28 · 10/12 (was 0.95 · 0.75)
  // thirteenth pass (refit on twelve splits), in-sample: 25/28 · 9/12 (was 25/28 · 10/12)
  'held-out': { answerable: 0.89, unanswerable: 0.75 },
  // unanswerable 8/12 with the eighth pass: the score gate calibrated to 0.45 (was 0.55) answers "What was the
  // cloud bill in February?" with a February sentence of another meeting; the gate gains five answers elsewhere
  // answerable 35/38 with the ninth pass
  // learned ranker and gate (eleventh pass), in-sample: 34/38 · 11/12 (was 0.92 · 0.66)
  // thirteenth pass (refit on twelve splits), in-sample: 33/38 · 11/12 (was 34/38 · 11/12)
  'held-out-2': { answerable: 0.86, unanswerable: 0.91 },
  // 18/33 and 10/11 since the twelve meetings sealed with held-out-5 joined as distractors (was 20/33, 11/11);
  // 19/33 with the sixth pass (the turn that settles a subject); 21/33 with the seventh; 22/33 with the eighth
  // 21/33 since the meetings sealed with answers held-out-9 and extraction held-out-5 joined as distractors (was 22/33)
  // learned ranker and gate (eleventh pass), in-sample: 16/33 · 11/11 (was 0.63 · 0.9)
  // thirteenth pass (refit on twelve splits), in-sample: 17/33 · 11/11 (same as before this pass)
  // 16/33 once answers held-out-16's meetings joined as distractors (sixteenth pass; the engine of the start of that day the same; was 18/33)
  'held-out-3': { answerable: 0.48, unanswerable: 0.99 },
  // 15/29 once held-out-6's meetings joined as distractors; 16/29 with the seventh pass; 18/29 with the eighth
  // 19/29 with the ninth; unanswerable 8/10 with the tenth (a what-… cost question wants money)
  // learned ranker and gate (eleventh pass), in-sample: 14/29 · 9/10 (was 0.65 · 0.79)
  // thirteenth pass (refit on twelve splits), in-sample: 15/29 · 9/10 (was 14/29 · 9/10)
  // 14/29 since the meetings sealed with answers held-out-13 and extraction held-out-9 joined as distractors (was 15/29)
  'held-out-4': { answerable: 0.48, unanswerable: 0.9 },
  // its first and only unseen run (commit 38a46ce): 11/33 = 0.33, 11/13 = 0.85; seen since, the sixth pass: 13/33
  // unanswerable 9/13 since held-out-7's meetings joined as distractors (was 11/13)
  // 15/33 with the eighth pass
  // 16/33 with the ninth
  // 15/33 since the meetings sealed with answers held-out-9 and extraction held-out-5 joined as distractors (was 16/33)
  // learned ranker and gate (eleventh pass), in-sample: 15/33 · 9/13 (was 0.45 · 0.69)
  // thirteenth pass (refit on twelve splits), in-sample: 14/33 · 10/13 (was 15/33 · 9/13)
  // fourteenth pass: the eval workspace holds each meeting's extracted work as pending proposals (1,619), as the product does; the
  // same weights on it: 13/33 · 10/13 (was 14/33 · 10/13 on transcripts alone)
  // 12/33 once extraction's held-out-10 and answers held-out-14 meetings (and their extracted work) joined, and the
  // extracted work now holds learned questions (fifteenth pass; was 13/33)
  // unanswerable 9/13 once extraction's held-out-13 and answers held-out-17 meetings joined as distractors (sixteenth pass; the
  // engine of the start of that day the same; was 10/13)
  'held-out-5': { answerable: 0.36, unanswerable: 0.69 },
  // its first and only unseen run: 19/33 = 0.58, 7/12 = 0.58; seen since, the seventh pass: 22/33; the eighth: 24/33, 9/12
  // 26/33 with the ninth
  // learned ranker and gate (eleventh pass), in-sample: 24/33 · 11/12 (was 0.78 · 0.75)
  // unanswerable 10/12 since the meetings of extraction's held-out-7 joined as distractors (was 11/12)
  // thirteenth pass (refit on twelve splits), in-sample: 26/33 · 10/12 (was 24/33 · 10/12)
  // fourteenth pass: the eval workspace holds each meeting's extracted work as pending proposals (1,619), as the product does; the
  // same weights on it: 25/33 · 10/12 (was 26/33 · 10/12)
  // 24/33 once extraction held-out-17's six meetings joined as distractors (eighteenth pass; measured without them: 25/33)
  'held-out-6': { answerable: 0.72, unanswerable: 0.83 },
  // its first and only unseen run (commit 63c99cf, the seventh pass): 15/33 = 0.45, 5/12 = 0.42; seen since, the eighth pass: 16/33, 9/12
  // unanswerable 8/12 since the meetings of extraction's held-out-4 joined as distractors (was 9/12)
  // learned ranker and gate (eleventh pass), in-sample: 15/33 · 7/12 (was 0.48 · 0.66)
  // 14/33 since the meetings sealed with answers held-out-10 and extraction held-out-6 joined as distractors (was 15/33)
  // 13/33 since the meetings sealed with answers held-out-11 joined as distractors (was 14/33)
  // thirteenth pass (refit on twelve splits), in-sample: 15/33 · 10/12 (the floor was 13/33 · 7/12)
  // unanswerable 9/12 since the meetings sealed with answers held-out-12 and extraction held-out-8 joined as distractors (was 10/12)
  // fourteenth pass: the eval workspace holds each meeting's extracted work as pending proposals (1,619), as the product does; the
  // same weights on it: 14/33 · 9/12 (was 15/33 · 9/12)
  'held-out-7': { answerable: 0.42, unanswerable: 0.75 },
  // its first and only unseen run (commit af982d9, the ninth pass): 9/33 = 0.27, 4/12 = 0.33; seen since, the tenth pass: 9/33, 6/12
  // learned ranker and gate (eleventh pass), in-sample: 9/33 · 9/12 (was 0.27 · 0.5)
  // thirteenth pass (refit on twelve splits), in-sample: 9/33 · 9/12 (same)
  // fourteenth pass: the eval workspace holds each meeting's extracted work as pending proposals (1,619), as the product does; the
  // same weights on it: 11/33 · 8/12 (was 11/33 · 9/12)
  // unanswerable 7/12 once extraction's held-out-9 and answers held-out-13 meetings (and their extracted work) joined (was 8/12)
  // answerable 8/33 once extraction's held-out-19 meetings joined as distractors (the start-of-day engine gives 8/33 on them too; was 9/33)
  'held-out-8': { answerable: 0.24, unanswerable: 0.58 },
  // its first and only unseen run (commit b48a4dd, the tenth pass): 12/33 = 0.36, 2/12 = 0.17
  // learned ranker and gate (eleventh pass), in-sample: 9/33 · 6/12 (was 0.36 · 0.16)
  // thirteenth pass (refit on twelve splits), in-sample: 12/33 · 6/12 (the floor was 9/33 · 6/12)
  // unanswerable 5/12 since the meetings sealed with answers held-out-12 and extraction held-out-8 joined as distractors (was 6/12)
  // fourteenth pass: the eval workspace holds each meeting's extracted work as pending proposals (1,619), as the product does; the
  // same weights on it: 11/33 · 4/12 (was 12/33 · 5/12)
  // 10/33 · 3/12 once extraction's held-out-11 and answers held-out-15 meetings (and their extracted work) joined as
  // distractors (sixteenth pass; the engine of the start of that day, cfb343b, the same; was 11/33 · 4/12)
  'held-out-9': { answerable: 0.3, unanswerable: 0.25 },
  // its first and only unseen run (commit 9dbb85d, the eleventh pass): 22/33 = 0.67, 6/12 = 0.50 (the engine of the
  // start of that day, commit 174f1fb, measuring only: 21/33, 5/12)
  // 21/33 since the meetings sealed with answers held-out-11 joined as distractors (was 22/33)
  // thirteenth pass (refit on twelve splits), in-sample: 25/33 · 5/12, seen and trained on now (was 21/33 · 6/12)
  // 24/33 once answers held-out-16's meetings joined as distractors (sixteenth pass; the engine of the start of that day the same; was 25/33)
  // 23/33 once the extraction batch held-out-14's meetings joined as distractors (commit 06ab549 alone reads 23/33; the answer engine unchanged)
  // 22/33 once extraction's held-out-16 meetings joined as distractors and the seventeenth pass's rules changed the eval
  // workspace's extracted work (the answer engine unchanged)
  'held-out-10': { answerable: 0.66, unanswerable: 0.41 },
  // its first and only unseen run (commit 361e09c, the eleventh pass with distinct sources): 12/33 = 0.36, 8/12 = 0.67
  // (the engine of the start of that day, commit 174f1fb, measuring only: 18/33, 7/12)
  // thirteenth pass (refit on twelve splits), in-sample: 18/33 · 7/12 (Chinese 4/11), seen and trained on now (was 13/33 · 8/12, Chinese 1/11)
  'held-out-11': { answerable: 0.54, unanswerable: 0.58 },
  // its first and only unseen run (commit 7aeab2a, the thirteenth pass): 12/33 = 0.36, 9/12 = 0.75 (English 7/17, Chinese 5/16;
  // the engine of the start of that day, commit 0e9663e, measuring only: 11/33, 9/12)
  // unanswerable 8/12 once the extraction detectors were retrained with held-out-10 (the eval workspace's extracted work
  // moved; fifteenth pass; was 9/12)
  // unanswerable 7/12 once extraction's held-out-13 and answers held-out-17 meetings joined as distractors (sixteenth pass; the
  // engine of the start of that day the same; was 8/12)
  'held-out-12': { answerable: 0.36, unanswerable: 0.58 },
  // held-out-13: its first and only unseen run (commit bcb716d, the fourteenth pass): 8/33 = 0.24, 8/12 = 0.67
  // (transcripts only and the engine of the start of that day: the same)
  // 7/33 once extraction's held-out-10 and answers held-out-14 meetings (and their extracted work) joined (fifteenth pass; was 8/33)
  // unanswerable 7/12 once extraction's held-out-11 and answers held-out-15 meetings joined (sixteenth pass; was 8/12)
  'held-out-13': { answerable: 0.21, unanswerable: 0.58 },
  // held-out-14: its first and only unseen run (commit 76934d1, the fifteenth pass): 13/33 = 0.39, 6/12 = 0.50
  // (English 6/17 · 5/6, Chinese 7/16 · 1/6; transcripts only: the same)
  // 12/33 once the extraction batch held-out-15's meetings joined as distractors (commit 52ac777 alone reads 12/33; the answer engine unchanged)
  // 11/33 once extraction held-out-17's six meetings joined as distractors (eighteenth pass; measured without them: 13/33)
  'held-out-14': { answerable: 0.33, unanswerable: 0.5 },
  // held-out-15: its first and only unseen run (commit 0a4bcdf, the sixteenth pass): 14/33 = 0.42, 6/12 = 0.50
  // (English 7/17 · 3/6, Chinese 7/16 · 3/6; transcripts only: the same); 16 of the 19 misses declined (no-evidence)
  // 13/33 once extraction's held-out-13 and answers held-out-17 meetings joined as distractors (the engine of the start of
  // that day the same; was 14/33)
  // answerable 12/33 once extraction's held-out-19 and -20 meetings joined as distractors (the start-of-day engine gives 12/33 with them too; was 13/33)
  'held-out-15': { answerable: 0.36, unanswerable: 0.5 },
  // held-out-16: its first and only unseen run (commit 9968299, the sixteenth pass): 12/33 = 0.36, 6/12 = 0.50
  // (English 7/18 · 1/6, Chinese 5/15 · 5/6; transcripts only: the same); 19 of the 21 misses declined
  'held-out-16': { answerable: 0.36, unanswerable: 0.5 },
  // held-out-17: its first and only unseen run (commit 16ff0d1, the sixteenth pass): 16/33 = 0.48, 9/12 = 0.75
  // (English 10/19 · 4/6, Chinese 6/14 · 5/6; transcripts only: the same); 12 of the 17 misses declined
  'held-out-17': { answerable: 0.48, unanswerable: 0.75 },
  // questions in the other language than their meeting (development, not sealed): 1/29, 9/12 (docs/answers.md);
  // 0/29, 11/12 with the thirteenth pass
  'cross-lingual': { answerable: 0, unanswerable: 0.91 },
}

describe('answer quality on the labelled questions', () => {
  it('keeps both shares at or above the floor on every split', async () => {
    const results = await evaluateAnswers({ only: Object.keys(FLOORS).join(',') })
    expect(results.map((result) => result.split).sort()).toEqual(Object.keys(FLOORS).sort())
    for (const result of results) {
      const floor = FLOORS[result.split]!
      expect(result.answeredWell / result.answerable, `${result.split} answerable`).toBeGreaterThanOrEqual(floor.answerable)
      expect(result.declined / result.unanswerable, `${result.split} unanswerable`).toBeGreaterThanOrEqual(floor.unanswerable)
    }
  }, 180_000)
})
