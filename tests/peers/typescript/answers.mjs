// The scripted answer to a question, shared by the TypeScript drivers: by the question's
// message first, else by its form's property names. An answer's `reply` answers every time;
// its `replies` answer one each, in order, for a question asked again.

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function replyOf(answer, message) {
    if (answer.replies === undefined) return answer.reply;
    if (answer.replies.length === 0) throw new Error(`no scripted answer left for ${JSON.stringify(message)}, asked once more`);
    return answer.replies.shift();
}

export function answerFor(scenario, message, properties) {
    const byMessage = scenario.answers.find(a => a.message !== undefined && a.message === message);
    if (byMessage) return replyOf(byMessage, message);
    const byProperties = scenario.answers.find(
        a => a.message === undefined && Array.isArray(a.properties) && sameList([...a.properties].sort(), properties)
    );
    if (byProperties) return replyOf(byProperties, message);
    throw new Error(`no scripted answer for ${JSON.stringify(message)} (properties ${JSON.stringify(properties)})`);
}
