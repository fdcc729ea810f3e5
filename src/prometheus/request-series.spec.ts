import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestCounter, RequestHistogram } from './request-series';

const BUCKETS = [0.001, 0.01, 0.1, 1];

/** A registry's text as sample → value, labels in name order (the order within braces is not meaningful). */
async function samplesOf(registry: Registry): Promise<Map<string, string>> {
  const samples = new Map<string, string>();
  for (const line of (await registry.metrics()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels = (match[2] ?? '').split(',').filter(Boolean).sort().join(',');
    samples.set(`${match[1]}{${labels}}`, match[3]);
  }
  return samples;
}

describe('request series', () => {
  it("are written out as prom-client's own counter and histogram fed the same values", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const options = { help: 'requests', labelNames: ['route', 'status'] };
    const counter = new RequestCounter({ ...options, name: 'requests_total', registry: ours });
    const histogram = new RequestHistogram({ ...options, name: 'seconds', buckets: BUCKETS, registry: ours });
    const referenceCounter = new Counter({ ...options, name: 'requests_total', registers: [theirs] });
    const referenceHistogram = new Histogram({
      ...options,
      name: 'seconds',
      buckets: BUCKETS,
      registers: [theirs],
    });
    const observations: [string, string, number][] = [
      ['/a', '200', 0.0005],
      ['/a', '200', 0.001], // on a bound: within it
      ['/a', '404', 0.05],
      ['/b "quoted"', '200', 7], // past every bound: only +Inf
      ['/a', '200', 0.3],
    ];
    for (const [route, status, seconds] of observations) {
      counter.labels(route, status).inc();
      histogram.labels(route, status).observe(seconds);
      referenceCounter.labels(route, status).inc();
      referenceHistogram.labels(route, status).observe(seconds);
    }
    const expected = await samplesOf(theirs);
    expect(expected.size).toBe(3 + 3 * (BUCKETS.length + 3));
    expect(await samplesOf(ours)).toEqual(expected);
    expect(await ours.metrics()).toContain('# TYPE seconds histogram\n');
    expect(await ours.metrics()).toContain('# HELP requests_total requests\n# TYPE requests_total counter\n');
  });

  it('keep one series per label values, and set them back to zero on reset, still counting after it', async () => {
    const registry = new Registry();
    const counter = new RequestCounter({ name: 'c', help: 'c', labelNames: ['x'], registry });
    const histogram = new RequestHistogram({
      name: 'h',
      help: 'h',
      labelNames: ['x'],
      buckets: [1],
      registry,
    });
    const one = counter.labels('1');
    expect(counter.labels('1')).toBe(one);
    expect(counter.labels('2')).not.toBe(one);
    one.inc();
    histogram.labels('1').observe(0.5);
    registry.resetMetrics();
    one.inc();
    const samples = await samplesOf(registry);
    expect(samples.get('c{x="1"}')).toBe('1');
    expect(samples.get('c{x="2"}')).toBe('0');
    expect(samples.get('h_count{x="1"}')).toBe('0');
    expect(samples.get('h_bucket{le="1",x="1"}')).toBe('0');
    expect(() => counter.labels('1', '2')).toThrow(/takes 1 label values, not 2/);
    expect(
      () => new RequestHistogram({ name: 'l', help: 'l', labelNames: ['le'], buckets: [1], registry }),
    ).toThrow(/'le' is the buckets' own label/);
  });
});
