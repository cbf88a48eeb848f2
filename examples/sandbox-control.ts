import { createSandboxControlClient } from '@merchant-payments/sandbox';

// The tenant is the credential: these are the keys your integration uses against the sandbox.
const control = createSandboxControlClient({
  baseUrl: process.env.MERCHANT_PAYMENTS_SANDBOX_URL ?? 'http://127.0.0.1:4020',
  publicKey: process.env.PAYMENTS_PUBLIC_KEY ?? 'pk_test_123',
  secretKey: process.env.PAYMENTS_SECRET_KEY ?? 'sk_test_456',
});

const { data } = await control.POST('/_sandbox/clock/advance', { body: { seconds: 300 } });
console.log(data?.data.now, data?.data.transitions, data?.data.delivery_attempts);
