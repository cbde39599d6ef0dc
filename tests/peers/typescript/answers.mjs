// The scripted answer to a question, shared by the TypeScript drivers: by the question's
// message first, else by its form's property names.

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export function answerFor(scenario, message, properties) {
    const byMessage = scenario.answers.find(a => a.message !== undefined && a.message === message);
    if (byMessage) return byMessage.reply;
    const byProperties = scenario.answers.find(
        a => a.message === undefined && Array.isArray(a.properties) && sameList([...a.properties].sort(), properties)
    );
    if (byProperties) return byProperties.reply;
    throw new Error(`no scripted answer for ${JSON.stringify(message)} (properties ${JSON.stringify(properties)})`);
}
