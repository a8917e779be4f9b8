// Why a request got no answer, in words a person can act on: the TLS cause and what fixes it, the
// size cap, the proxy that was in the way. Used by the preflight, the client and the cleanup.
import { proxyFor } from './proxy.ts';
import { inMb } from '../data/body-cap.ts';

/** Certificates signed by an authority this machine does not trust (a private CA, a self-signed certificate). */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
]);

export interface WhyContext {
  /** The URL the request went to. */
  url: string;
  /** The answer size cap in bytes (--max-body-mb). */
  maxBodyBytes?: number;
}

const hostOf = (url: string) => { try { return new URL(url).host; } catch { return url; } };

/** One line: the cause, then what to do about it when there is something. */
export function whyFailed(err: unknown, ctx: WhyContext): string {
  const e = (err ?? {}) as Error & { code?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const message = e.message ?? String(err);
  const host = hostOf(ctx.url);
  if (UNTRUSTED.has(code)) {
    const extra = process.env.NODE_EXTRA_CA_CERTS;
    return `TLS: the certificate of ${host} is signed by an authority this machine does not trust (${code}); `
      + (extra ? `NODE_EXTRA_CA_CERTS (${extra}) is set but does not hold it: put the PEM certificate of the authority that signed it there`
        : 'if it is a private CA, give its PEM certificate in NODE_EXTRA_CA_CERTS=/path/to/ca.pem and run again');
  }
  if (code === 'CERT_HAS_EXPIRED') return `TLS: the certificate of ${host} has expired (${code})`;
  if (code === 'CERT_NOT_YET_VALID') return `TLS: the certificate of ${host} is not valid yet (${code}; is this machine's clock right?)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `TLS: the certificate is not for ${host} (${code}: ${message})`;
  if (/^ERR_SSL_|^EPROTO$/.test(code)) return `TLS handshake with ${host} failed (${code}: ${message}); does the URL's scheme match the port (https for TLS)?`;
  if (code === 'ANSWER_TOO_HEAVY') return message;
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return `the answer is larger than ${ctx.maxBodyBytes ? inMb(ctx.maxBodyBytes) : 'the cap'} (--max-body-mb): it was not read further`;
  }
  const proxy = proxyFor(ctx.url);
  if (/when HTTP Tunneling/.test(message)) return `the proxy ${proxy?.shown ?? ''} refused the tunnel to ${host} (${message})`;
  if (message === 'Proxy Authentication Required (407)') return `the proxy ${proxy?.shown ?? ''} wants credentials (407): put them in ${proxy?.from ?? 'HTTPS_PROXY'} as http://user:password@host:port`;
  const plain = `${code || e.name || 'Error'}: ${message}`;
  if (proxy) return `${plain} (through the proxy ${proxy.shown}, from ${proxy.from})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${plain} (no proxy is set: if this machine reaches ${host} through one, set HTTPS_PROXY or HTTP_PROXY)`;
  return plain;
}
