import type { ComponentType } from 'react';
import type { ChatMessage } from '../../../../protocol/index.ts';

/** What the delivery actions of a summary are told: the question. */
export type DeliverySlotProps = { questionId: string };

/**
 * What the app hands the summaries from other features: the delivery line (the outbox feature's) and the saved
 * reply messages by id (the chat feature's history). Features never import each other, so app/ composes them.
 */
export type SummarySlots = {
  Delivery?: ComponentType<DeliverySlotProps>;
  replies?: ReadonlyMap<string, ChatMessage>;
};
