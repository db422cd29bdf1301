import { Injectable } from '@nestjs/common';
import type { ReportSource } from './report-source';

/** The reports the owning modules registered, by name. */
@Injectable()
export class ReportRegistry {
  private readonly sources = new Map<string, ReportSource<never>>();

  /** @throws Error when the name is taken */
  register<T>(source: ReportSource<T>): void {
    if (this.sources.has(source.name)) throw new Error(`Report ${source.name} is already registered`);
    this.sources.set(source.name, source as unknown as ReportSource<never>);
  }

  find(name: string): ReportSource<never> | undefined {
    return this.sources.get(name);
  }

  names(): string[] {
    return [...this.sources.keys()];
  }
}
