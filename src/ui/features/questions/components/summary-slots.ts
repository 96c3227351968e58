import type { ComponentType } from 'react';
import type { ChatMessage } from '../../../../protocol/index.ts';

/** What the delivery line of a summary is told: the question, and the saved reply when the gateway confirmed ours. */
export type DeliverySlotProps = { questionId: string; savedReplyId?: string };

/**
 * What the app hands the summaries from other features: the delivery line (the outbox feature's) and the saved
 * reply messages by id (the chat feature's history). Features never import each other, so app/ composes them.
 */
export type SummarySlots = {
  Delivery?: ComponentType<DeliverySlotProps>;
  replies?: ReadonlyMap<string, ChatMessage>;
};
