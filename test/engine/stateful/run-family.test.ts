// The model paths a failure of a model-based family prints (read back as written, refused when
// malformed), how shrinking is said, and how many sequences a run draws.
import { describe, expect, test } from 'vitest';
import { formatModelPath, parseModelPath, sequencesFor, shrinkNote } from '../../../engine/stateful/run-family.js';

describe('model paths', () => {
  test.each([
    ['3:1:0@CB:A', { counterexamplePath: '3:1:0', replayPath: 'CB:A' }],
    ['0@:', { counterexamplePath: '0', replayPath: ':' }],
  ])('%s reads back as written', (text, path) => {
    expect(parseModelPath(text)).toEqual(path);
    expect(formatModelPath(path)).toBe(text);
  });
  test.each(['3:1:0', 'a@B:C', '1@B:C@D', '1@BC'])('%s is refused as a harness error', (text) => {
    expect(() => parseModelPath(text)).toThrow(expect.objectContaining({ code: 'CNF_ERR_CONFIG_INVALID' }));
  });
  test('shrinking is said in steps, and not at all without any', () => {
    expect([shrinkNote(0), shrinkNote(1), shrinkNote(4)]).toEqual(['', ' in 1 step', ' in 4 steps']);
  });
  test('a run of 50 cases draws 10 sequences, 15 cases 3, never more than a family allows', () => {
    expect([sequencesFor({}, 50), sequencesFor({}, 15), sequencesFor({}, 1), sequencesFor({ maxSequences: 5 }, 50)]).toEqual([10, 3, 1, 5]);
  });
});
