import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/consensus/simulator';

const ROOT = join(__dirname, '..', '..');

/** `npm run sim -- …` without npm's own lines: the script as npm runs it. */
function sim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', 'scripts/sim.ts', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('npm run sim', () => {
  it('--help lists the options and every fault kind', async () => {
    const { code, stdout } = await sim('--help');
    expect(code).toBe(0);
    for (const option of ['--nodes', '--seed', '--slots', '--faults', '--votes', '--status-peers']) {
      expect(stdout).toContain(option);
    }
    for (const kind of FAULT_KINDS) expect(stdout).toMatch(new RegExp(`^  ${kind} `, 'm'));
  });

  it('exits 0 when every invariant held, the last line summing up finality lag and reorgs', async () => {
    const { code, stdout } = await sim('--nodes', '4', '--seed', '3', '--slots', '60', '--faults', 'all');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[lines.length - 1]).toMatch(
      /^ok: finality lag p50 [\d.]+ \/ p99 [\d.]+ slots; reorgs \d+ \(max depth \d+\); [\d.]+ messages per block$/,
    );
  });

  it('exits 1 with the seed and the step when an invariant broke (the old fork choice, seed 254)', async () => {
    const faults = FAULT_KINDS.filter((kind) => kind !== 'silent').join(',');
    const args = ['--nodes', '4', '--seed', '254', '--slots', '150', '--faults', faults];
    const { code, stdout } = await sim(...args, '--fork-choice', 'longest');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^BROKEN: transaction not final: /m);
    expect(stdout).toMatch(/^seed 254, step \d+ \(/m);
    expect(stdout.trim().split('\n').pop()).toMatch(/^FAILED: finality lag /);
    // The same run with vote aggregation and the fork choice by votes holds.
    expect((await sim(...args, '--votes', 'collectors', '--status-peers', '2')).code).toBe(0);
  });

  it('exits 2 on an option it does not know or a bad value', async () => {
    expect(await sim('--votes', 'some')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--votes'),
    });
    expect(await sim('--faults', 'loss,meteor')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown fault kind: meteor'),
    });
    expect((await sim('--bogus')).code).toBe(2);
  });
});
