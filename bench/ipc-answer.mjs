// How a child of the benchmark answers its parent over IPC and leaves (bench/paced-load.mjs).
//
// process.send() returns before a large message is written: what the IPC socket's buffer does not
// take (about 208 KiB on Linux) is written as the parent reads. process.disconnect() does not wait
// for it: it closes the channel on the next tick and libuv cancels the writes still queued, so the
// parent never gets the message, and the child, with nothing left to do, exits with 0. The answer
// of the proxy's paced rows (4 routes, 6,000 latencies each, 216 KiB) is that large: when the
// parent was busy when it came (on a loaded machine), the answer was lost.

/**
 * Sends `message` to the parent and resolves once it is written whole (the send's callback),
 * then disconnects. Rejects with the send's error (the parent gone); disconnects all the same.
 * @param {unknown} message a value the channel's serialization takes
 * @returns {Promise<void>}
 */
export async function answerParent(message) {
  try {
    await new Promise((resolve, reject) => process.send(message, (error) => (error ? reject(error) : resolve())));
  } finally {
    if (process.connected) process.disconnect();
  }
}
