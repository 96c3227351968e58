import type { GatewayConfig } from '../gateway/config.ts';
import { testConfig } from './gateway-harness.ts';

/** The test identities with a policy: npm tests allowed, rm -rf denied, git push asked (with a reason), the rest asked. */
export const policyConfig: GatewayConfig = {
  ...testConfig,
  approvals: {
    rules: [
      { id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' },
      { id: 'no-rm', rule: 'Bash(rm -rf *)', decision: 'deny', reason: 'nothing is deleted wholesale' },
      { id: 'push', rule: 'Bash(git push *)', decision: 'ask', reason: 'pushing leaves the machine' },
    ],
    unmatched: 'ask',
  },
};
