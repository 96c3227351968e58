import { expect, it } from 'vitest';
import { deploy, longItem, lunch } from '../../testing/channels/scenario-items.ts';
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

  it('[H2][H4] a reply to any part of a prompt posted in parts answers that prompt, not the blocking one pending beside it', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('plan and deploy');
    const plan = await w.ask(key, [longItem(1, 'First'), longItem(2, 'Second'), longItem(3, 'Third')], { mode: 'async' });
    const firstPart = await posted('the first part of the plan', (m) => m.text.includes('First'));
    await posted('the last part of the plan', (m) => m.text.includes('Reply with one line per question'));
    expect(firstPart.text).not.toContain('Reply with one line per question');
    const later = await w.ask(key, [deploy]);
    await posted('the deploy question', (m) => m.buttons.includes('Staging'));
    await driver.userSays(driver.ids.alice, '1: 1\n2: 2\n3: 4', firstPart);
    await until(async () => (await w.question(plan)).status !== 'pending' || (await w.question(later)).status !== 'pending', 'an answer');
    expect(await w.question(plan)).toMatchObject({ status: 'answered', answers: { q1: ['Alpha'], q2: ['Beta'], q3: ['Delta'] } });
    expect((await w.question(later)).status).toBe('pending');
  });
});
