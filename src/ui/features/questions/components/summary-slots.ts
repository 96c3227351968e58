import type { ComponentType } from 'react';
import type { ChatMessage } from '../../../../protocol/index.ts';

/** What the delivery actions of a summary are told: the question. */
export type DeliverySlotProps = { questionId: string };

/** What the receipt button of a decided question is told: its signed receipt (L4). */
export type ReceiptSlotProps = { receipt: string };

/**
 * What the app hands the summaries from other features: the delivery line (the outbox feature's), the saved
 * reply messages by id (the chat feature's history) and the receipt's button (the audit feature's). Features never
 * import each other, so app/ composes them.
 */
export type SummarySlots = {
  Delivery?: ComponentType<DeliverySlotProps>;
  replies?: ReadonlyMap<string, ChatMessage>;
  Receipt?: ComponentType<ReceiptSlotProps>;
};
