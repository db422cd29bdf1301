import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { ProcessedWebhook } from './processed-webhook.schema';

/**
 * Runs each webhook event at most once per source, also when the same event arrives twice at the same moment: the
 * event id is claimed with a unique insert before handling, and released if handling fails so a retry can run.
 */
@Injectable()
export class WebhookReplayGuard {
  private readonly logger = new Logger(WebhookReplayGuard.name);

  constructor(@InjectModel(ProcessedWebhook.name) private readonly processed: Model<ProcessedWebhook>) {}

  /** @returns whether `handle` ran (false: the event was handled before). */
  async once(source: string, eventId: string, handle: () => Promise<void>): Promise<boolean> {
    if (!(await this.claim(source, eventId))) {
      this.logger.log(`Ignored ${source} event ${eventId}: handled before (a replay or a redelivery)`);
      return false;
    }
    try {
      await handle();
      return true;
    } catch (error) {
      await this.processed.deleteOne({ source, eventId }).exec();
      throw error;
    }
  }

  private async claim(source: string, eventId: string): Promise<boolean> {
    try {
      await this.processed.create({ source, eventId });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
