import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

/** One sample as prom-client's registry writes it out. */
interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

interface MetricOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registry: Registry;
}

/**
 * The request path's counters and histograms: a series is found once by the caller and then only added
 * to. prom-client's own labelled children hash and check their labels on every call (a counter and a
 * histogram took about a microsecond a request together, measured in bench/README), which the request
 * path pays for every answer. prom-client still writes these out with the rest: each is registered in its
 * registry and answers `get()` in the shape prom-client's metrics do.
 */
abstract class RequestMetric<Series> {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';
  protected readonly series = new Map<string, { labels: Labels; series: Series }>();

  constructor(protected readonly options: MetricOptions) {
    // Typed as prom-client's own Metric class; the registry reads only name, help, type, get() and reset().
    options.registry.registerMetric(this as never);
  }

  get name(): string {
    return this.options.name;
  }

  get help(): string {
    return this.options.help;
  }

  /** The series of these label values (in `labelNames` order), made on first use. */
  labels(...values: string[]): Series {
    if (values.length !== this.options.labelNames.length) {
      throw new Error(
        `${this.name} takes ${this.options.labelNames.length} label values, not ${values.length}`,
      );
    }
    const key = values.join('\u0000');
    let found = this.series.get(key);
    if (!found) {
      const labels = Object.fromEntries(this.options.labelNames.map((name, i) => [name, values[i]]));
      found = { labels, series: this.newSeries() };
      this.series.set(key, found);
    }
    return found.series;
  }

  reset(): void {
    this.series.clear();
  }

  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values = [...this.series.values()].flatMap(({ labels, series }) => this.samples(labels, series));
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  protected abstract newSeries(): Series;
  protected abstract samples(labels: Labels, series: Series): Sample[];
}

export class CounterSeries {
  value = 0;

  inc(): void {
    this.value++;
  }
}

export class RequestCounter extends RequestMetric<CounterSeries> {
  readonly type = 'counter';

  protected newSeries(): CounterSeries {
    return new CounterSeries();
  }

  protected samples(labels: Labels, series: CounterSeries): Sample[] {
    return [{ labels, value: series.value }];
  }
}

export class HistogramSeries {
  /** Observations per bucket, not cumulative: an observation adds to the first bound it is within. */
  readonly inBucket: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.inBucket = bounds.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= this.bounds[i]) {
        this.inBucket[i]++;
        return;
      }
    }
  }
}

export class RequestHistogram extends RequestMetric<HistogramSeries> {
  readonly type = 'histogram';
  private readonly buckets: number[];

  constructor(options: MetricOptions & { buckets: readonly number[] }) {
    super(options);
    this.buckets = [...options.buckets].sort((a, b) => a - b);
  }

  protected newSeries(): HistogramSeries {
    return new HistogramSeries(this.buckets);
  }

  protected samples(labels: Labels, series: HistogramSeries): Sample[] {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    const samples: Sample[] = this.buckets.map((bound, i) => {
      cumulative += series.inBucket[i];
      return { labels: { ...labels, le: String(bound) }, value: cumulative, metricName: bucket };
    });
    samples.push(
      { labels: { ...labels, le: '+Inf' }, value: series.count, metricName: bucket },
      { labels, value: series.sum, metricName: `${this.name}_sum` },
      { labels, value: series.count, metricName: `${this.name}_count` },
    );
    return samples;
  }
}
