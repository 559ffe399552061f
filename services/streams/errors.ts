import { GwError } from '../../lib/errors';

/** The streams service's error catalogue. */
export const StreamsErrors = {
  cannotRun: (apiId: string, reason: string) =>
    new GwError('GW_ERR_STREAMS_CANNOT_RUN', 503, `The streams of API ${apiId} can not run: ${reason}`, {
      api_id: apiId,
    }),
  stopped: () =>
    new GwError(
      'GW_ERR_STREAMS_STOPPED',
      503,
      'The stream was stopped before the message was delivered; send it again',
    ),
  outboundRefused: (url: string, why: string) =>
    new GwError('GW_ERR_STREAMS_OUTBOUND_REFUSED', 400, `A stream may not call ${url}: ${why}`, { url }),
};
