import { expect, it } from 'vitest';
import { deploy, lunch } from '../../testing/channels/scenario-items.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { describeOnEveryPlatform } from '../../testing/channels/every-platform.ts';

describeOnEveryPlatform('the question a reply answers', (_name, world) => {
  const posted = world.posted;

  it('[H4] a reply to a question\'s own message answers that one, not the blocking one pending beside it; once it is answered, none', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('lunch and deploy');
    const early = await w.ask(key, [lunch], { mode: 'async' });
    const lunchPrompt = await posted('the lunch question', (m) => m.buttons.includes('Pizza'));
    const later = await w.ask(key, [deploy]);
    await posted('the deploy question', (m) => m.buttons.includes('Staging'));
    await driver.userSays(driver.ids.alice, 'Ramen', lunchPrompt);
    await until(async () => (await w.question(early)).status !== 'pending' || (await w.question(later)).status !== 'pending', 'an answer');
    expect(await w.question(early)).toMatchObject({ status: 'answered', answers: { lunch: ['Ramen'] } });
    await driver.userSays(driver.ids.alice, 'Sushi', lunchPrompt);
    await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text === 'Sushi'), 'the reply as a message');
    expect((await w.question(later)).status).toBe('pending');
    // A message that replies to nothing answers the blocking question, as before.
    await driver.userSays(driver.ids.alice, 'Production');
    await until(async () => (await w.question(later)).status === 'answered', 'the deploy answer');
  });
});
