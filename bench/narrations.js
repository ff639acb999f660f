// bench/narrations: the rules analyser on test/fixtures/narrations.json (then the outside, third, fourth, fifth and sixth corpora), its tuning part and its
// held-out part (intent, label and hold all right; then the issue's routing targets on the held-out
// part), its speed against a floor of the same loop doing nothing but normalising the text, and
// the one-off cost of loading the English word list against reading the file alone.
import { readFileSync } from 'node:fs';
import { holdReason } from '../dist/engine/intelligence/analyser.js';
import { analyseNarration } from '../dist/engine/intelligence/rules-analyser.js';
import { englishWords } from '../dist/engine/intelligence/word-list.js';
import wordListPath from 'word-list';
import {
  corpus,
  fifthHeldOut,
  fifthTuning,
  sixthHeldOut,
  sixthTuning,
  fourthHeldOut,
  fourthTuning,
  heldOut,
  outsideHeldOut,
  outsideTuning,
  thirdHeldOut,
  thirdTuning,
  tuning,
} from '../test/fixtures/narration-corpus.js';

const input = (c) => ({
  narration: c.narration,
  systemPrompt: c.system_prompt ?? '',
  amount: c.amount ?? 100_000,
  senderName: c.sender_name ?? 'SANDBOX SENDER',
});
const held = (c) => holdReason(analyseNarration(input(c))) !== null;
const right = (c) => {
  const r = analyseNarration(input(c));
  return r.extracted_intent === c.intent && r.suggested_label === c.label && held(c) === c.held;
};
const percent = (cases, test) => (100 * cases.filter(test).length) / cases.length;

function misses(name, cases) {
  for (const c of cases.filter((x) => !right(x))) {
    const r = analyseNarration(input(c));
    console.error(
      `  ${name} miss: "${c.narration}"${c.system_prompt ? ` with prompt "${c.system_prompt}"` : ''}: ` +
        `expected ${c.intent}/${c.held ? 'held' : 'credited'}, got ${r.extracted_intent}/${held(c) ? 'held' : 'credited'}`,
    );
  }
}

/** A corpus's rows: its tuning part, then its held-out part against the issue's targets (the first corpus's). */
function corpusRows(name, title, tuningPart, heldOutPart, notes = {}) {
  const legitimate = heldOutPart.filter((c) => !c.held);
  const noise = heldOutPart.filter((c) => c.kind === 'noise' && c.held); // labelled empty: not the emoji read since (asDecided)
  const part = (what) => [name, what].filter(Boolean).join(' ');
  return [
    {
      row: `${title}, tuning part (${tuningPart.length})`,
      value: percent(tuningPart, right),
      floor: 100,
      unit: '%',
      floorLabel: 'all right',
      target: '—',
      met: true,
    },
    {
      row: `${title}, held-out part (${heldOutPart.length})`,
      value: percent(heldOutPart, right),
      floor: 100,
      unit: '%',
      floorLabel: 'all right',
      target: '≥ 95 %',
      note: notes.accuracy,
    },
    {
      row: part('held-out routed right (held or credited)'),
      value: percent(heldOutPart, (c) => held(c) === c.held),
      floor: 100,
      unit: '%',
      floorLabel: 'all right',
      target: '≥ 95 %',
      note: notes.routed,
    },
    {
      row: part(`held-out legitimate credited (${legitimate.length})`),
      value: percent(legitimate, (c) => !held(c)),
      floor: 100,
      unit: '%',
      floorLabel: 'all right',
      target: '≥ 98 %',
      note: notes.legitimate,
    },
    {
      row: part(`held-out empty and gibberish held (${noise.length})`),
      value: percent(noise, held),
      floor: 100,
      unit: '%',
      floorLabel: 'all right',
      target: '100 %',
    },
  ];
}

export async function run() {
  // Loading the word list happens once per server process, on the first narration.
  let start = performance.now();
  readFileSync(wordListPath);
  const readOnly = performance.now() - start;
  start = performance.now();
  englishWords();
  const load = performance.now() - start;

  misses('tuning', tuning);
  misses('held-out', heldOut);
  misses('outside held-out', outsideHeldOut);
  misses('third held-out', thirdHeldOut);
  const rows = corpusRows('', 'narration accuracy', tuning, heldOut);
  // The outside corpus (narrations-outside.json), written by a second engineer: its held-out part against the same targets.
  // Its held-out part's misses have been published and read: its accuracy is "after reading its misses".
  rows.push(
    ...corpusRows('outside', 'outside corpus accuracy', outsideTuning, outsideHeldOut, {
      accuracy: 'after reading its misses (measured once: 77.5 %)',
      routed: 'measured once: 97.1 %',
    }),
  );
  // The third corpus (narrations-third.json), written by an engineer who never read the analyser; its
  // held-out part was measured once before its misses were read.
  rows.push(
    ...corpusRows('third', 'third corpus accuracy', thirdTuning, thirdHeldOut, {
      accuracy: 'after reading its misses (measured once: 76.6 %); its 14 "Unknown" labels count as misses',
      routed: 'measured once: 94.4 %, missed',
      legitimate: 'measured once: 98.0 % (2 held), missed',
    }),
  );
  // The fourth corpus (narrations-fourth.json), written without reading the analyser and measured
  // once as it landed. Its misses are not printed: its held-out part stays unread. "Measured once" is
  // that first figure; what the analyser does today is the row's value.
  rows.push(
    ...corpusRows('fourth', 'fourth corpus accuracy', fourthTuning, fourthHeldOut, {
      accuracy: 'never read (measured once: 84.9 %, 90 of 106)',
      routed: 'never read (measured once: 95.3 %)',
      legitimate: 'never read',
    }),
  );
  // The fifth corpus (narrations-fifth.json), written without reading the analyser; its held-out part stays unread.
  rows.push(
    ...corpusRows('fifth', 'fifth corpus accuracy', fifthTuning, fifthHeldOut, {
      accuracy: 'never read (measured once: 82.9 %, 92 of 111)',
      routed: 'never read (measured once: 94.6 %)',
      legitimate: 'never read',
    }),
  );
  // The sixth corpus (narrations-sixth.json), written blind and leaning on emoji, look-alikes, the
  // risk classes and instructions; its held-out part stays unread.
  rows.push(
    ...corpusRows('sixth', 'sixth corpus accuracy', sixthTuning, sixthHeldOut, {
      accuracy: 'never read (measured as it landed: 64.6 %, 53 of 82)',
      routed: 'never read (measured as it landed: 73.2 %, 60 of 82)',
      legitimate: 'never read (measured as it landed: 7 of 51 held)',
    }),
  );
  for (const r of rows.filter((x) => x.met === undefined)) r.met = r.value >= Number(/[\d.]+/.exec(r.target)[0]);

  const rounds = 100;
  start = performance.now();
  for (let i = 0; i < rounds; i++) for (const c of corpus) c.narration.toUpperCase().replace(/[^A-Z0-9]+/g, ' ');
  const floor = (performance.now() - start) / (rounds * corpus.length);
  start = performance.now();
  for (let i = 0; i < rounds; i++) for (const c of corpus) analyseNarration(input(c));
  const each = (performance.now() - start) / (rounds * corpus.length);
  rows.push(
    {
      row: `narration analysis time (${corpus.length} narrations)`,
      value: each * 1000,
      floor: floor * 1000,
      unit: 'µs',
      floorLabel: 'normalising only',
      lowerIsBetter: true,
      target: '—',
      met: true,
    },
    {
      row: 'English word list load, once per server',
      value: load,
      floor: readOnly,
      unit: 'ms',
      floorLabel: 'reading the file',
      lowerIsBetter: true,
      target: '—',
      met: true,
    },
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
