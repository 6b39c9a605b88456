/** Collects on demand, as an exporter would, so a test can read what the service counted. */
import { MetricReader, type DataPoint, type Histogram } from "@opentelemetry/sdk-metrics";

export class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}

  private async points(name: string, attributes: Record<string, unknown>): Promise<DataPoint<unknown>[]> {
    const { resourceMetrics } = await this.collect();
    const matches = (point: DataPoint<unknown>) => Object.entries(attributes).every(([k, v]) => point.attributes[k] === v);
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics.filter((m) => m.descriptor.name === name))
      .flatMap((metric) => (metric.dataPoints as DataPoint<unknown>[]).filter(matches));
  }

  /** The sum of a counter's points with these attributes. */
  async counter(name: string, attributes: Record<string, unknown> = {}): Promise<number> {
    return (await this.points(name, attributes)).reduce((total, p) => total + (p.value as number), 0);
  }

  /** How many values a histogram recorded with these attributes, and their sum. */
  async histogram(name: string, attributes: Record<string, unknown> = {}): Promise<{ count: number; sum: number }> {
    const points = (await this.points(name, attributes)).map((p) => p.value as Histogram);
    return { count: points.reduce((n, h) => n + h.count, 0), sum: points.reduce((n, h) => n + (h.sum ?? 0), 0) };
  }

  /** The last observed value of a gauge with these attributes, or undefined. */
  async gauge(name: string, attributes: Record<string, unknown> = {}): Promise<number | undefined> {
    return (await this.points(name, attributes)).map((p) => p.value as number).at(-1);
  }
}
