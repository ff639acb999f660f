// bench/narrations: the rules analyser's accuracy on test/fixtures/narrations.json (intent, label and
// whether the payment is held), and its speed against a floor of the same loop doing nothing but
// normalising the text.
import { readFileSync } from 'node:fs';
import { LOW_CONFIDENCE } from '../dist/engine/intelligence/analyser.js';
import { analyseNarration, hasRiskFlag } from '../dist/engine/intelligence/rules-analyser.js';

const corpus = JSON.parse(readFileSync(new URL('../test/fixtures/narrations.json', import.meta.url), 'utf8'));
const input = (c) => ({ narration: c.narration, systemPrompt: c.system_prompt ?? '', amount: c.amount ?? 100_000, senderName: 'SANDBOX SENDER' });

export async function run() {
  const misses = [];
  for (const c of corpus) {
    const r = analyseNarration(input(c));
    const held = r.confidence_score < LOW_CONFIDENCE || hasRiskFlag(r);
    if (r.extracted_intent !== c.intent || r.suggested_label !== c.label || held !== c.held) misses.push({ c, r, held });
  }
  const correct = corpus.length - misses.length;
  for (const { c, r, held } of misses) {
    console.error(`  narration miss: "${c.narration}"${c.system_prompt ? ` with prompt "${c.system_prompt}"` : ''}: expected ${c.intent}/${c.held ? 'held' : 'credited'}, got ${r.extracted_intent}/${held ? 'held' : 'credited'}`);
  }
  const rounds = 200;
  let start = performance.now();
  for (let i = 0; i < rounds; i++) for (const c of corpus) c.narration.toUpperCase().replace(/[^A-Z0-9]+/g, ' ');
  const floor = (performance.now() - start) / (rounds * corpus.length);
  start = performance.now();
  for (let i = 0; i < rounds; i++) for (const c of corpus) analyseNarration(input(c));
  const each = (performance.now() - start) / (rounds * corpus.length);
  return [
    { row: `narration analysis accuracy (${corpus.length} narrations)`, value: (100 * correct) / corpus.length, floor: 100, unit: '%', floorLabel: 'all right', target: '—', met: true },
    { row: 'narration analysis time', value: each * 1000, floor: floor * 1000, unit: 'µs', floorLabel: 'normalising only', lowerIsBetter: true, target: '—', met: true },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
