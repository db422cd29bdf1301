import { OnModuleInit } from '@nestjs/common';
import { Model } from 'mongoose';
import { ReportRegistry } from './report-registry';
import { CreatedBetween, ReportColumn, ReportRows, ReportSource } from './report-source';

/** The documents of `model` matching `filter` and created in the range, oldest first, read as plain objects. */
function rowsInCreationOrder<T, S = unknown>(
  model: Model<S>,
  filter: Record<string, unknown>,
  { from, to }: CreatedBetween,
): ReportRows<T> {
  const createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) };
  const range = Object.keys(createdAt).length ? { createdAt } : {};
  return model
    .find({ ...filter, ...range })
    .sort({ createdAt: 1, _id: 1 })
    .lean<T>()
    .cursor() as ReportRows<T>;
}

/**
 * A report over one model of the owning module: its documents matching `filter`, in creation order. The subclass
 * names the report and its columns, and registers itself when its module starts.
 */
export abstract class ModelReport<T, S = unknown> implements ReportSource<T>, OnModuleInit {
  abstract readonly name: string;
  abstract readonly columns: readonly ReportColumn<T>[];

  protected constructor(
    private readonly registry: ReportRegistry,
    private readonly model: Model<S>,
    private readonly filter: Record<string, unknown> = {},
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  rows(created: CreatedBetween): ReportRows<T> {
    return rowsInCreationOrder<T, S>(this.model, this.filter, created);
  }
}
