// A graphql-transport-ws client: one socket per subscription, the API key in connection_init.
// https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md

/** Close codes the server refuses a connection with (see the API's error contract): 4403 and 1013,
 * or with WS_LEGACY_CLOSE_CODES 4401 and 4429. The reason's `<CODE>:` prefix is read first. */
const REFUSED_CODES = { 4401: 'auth', 4403: 'auth', 1013: 'rate', 4429: 'rate' };
const REFUSED_REASONS = { UNAUTHENTICATED: 'auth', RATE_LIMITED: 'rate' };

/** Why the server closed a socket: 'auth', 'rate', or undefined when it did not refuse it. */
export function refusal(code, reason) {
  return REFUSED_REASONS[(reason ?? '').split(':')[0]] ?? REFUSED_CODES[code];
}

/**
 * Subscribe to `query`. `sink` gets next(data), error(errors), complete(), and closed(code, reason)
 * when the socket ends before the subscription did. Returns a function that unsubscribes.
 */
export function subscribe({ query, operationName, variables, key }, sink) {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const socket = new WebSocket(url, 'graphql-transport-ws');
  let finished = false;
  const send = (message) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
  const finish = () => {
    finished = true;
    // Closing a socket still connecting makes the browser log an error; close it once open instead.
    if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close(1000);
    else socket.close(1000);
  };

  socket.onopen = () => send({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } });
  socket.onmessage = ({ data }) => {
    const message = JSON.parse(data);
    if (message.type === 'connection_ack') {
      send({ id: '1', type: 'subscribe', payload: { query, operationName, variables } });
      sink.open?.();
    } else if (message.type === 'ping') {
      send({ type: 'pong' });
    } else if (message.type === 'next') {
      if (message.payload.errors) sink.error?.(message.payload.errors);
      else sink.next(message.payload.data);
    } else if (message.type === 'error') {
      finish();
      sink.error?.(message.payload);
    } else if (message.type === 'complete') {
      finish();
      sink.complete?.();
    }
  };
  socket.onclose = ({ code, reason }) => {
    if (!finished) sink.closed?.(code, reason);
  };
  return () => {
    if (finished) return;
    send({ id: '1', type: 'complete' });
    finish();
  };
}

/**
 * Check `key` with a bare connection_init: resolves when the server acknowledges it, rejects with
 * {kind, reason} when it closes the socket instead. (A refused HTTP request would also tell, but
 * browsers log every 401 as a console error; a refused socket close is a normal close.)
 */
export function handshake(key) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`, 'graphql-transport-ws');
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } }));
    socket.onmessage = ({ data }) => {
      if (JSON.parse(data).type !== 'connection_ack') return;
      socket.onclose = null;
      socket.close(1000);
      resolve();
    };
    socket.onclose = ({ code, reason }) => reject({ kind: refusal(code, reason) ?? 'network', reason });
  });
}
