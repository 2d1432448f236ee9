import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const page = (html: string, body: string) =>
  `<!doctype html>${html}<head><title>Why does the kettle hum?</title></head><body><header class="site-header"><a href="/">Home</a></header><main>${body}</main><footer><p>© 2026 Example</p></footer></body></html>`;

describe("forum and Q&A posts", () => {
  it("reads each question and answer of a microdata Q&A page as its text, without votes, cards or comment threads", () => {
    const comment = (n: number) =>
      `<li itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="text">Comment ${n}: have you tried another socket in the kitchen?</span> <a href="/u/${n}">commenter${n}</a> <span>Commented May ${n}</span></li>`;
    const post = (type: string, text: string, votes: number) =>
      `<div itemscope itemtype="https://schema.org/${type}"${type === "Answer" ? ' itemprop="suggestedAnswer"' : ""}><div class="votes"><button>Up vote</button><span>${votes}</span></div><div class="post-cell"><div itemprop="text"><p>${text}</p></div><div class="signature" itemprop="author" itemscope itemtype="https://schema.org/Person"><a href="/u/9">asker nine</a> 1,204 reputation</div></div><div class="post-comments"><ul>${comment(1)}${comment(2)}</ul><a href="#">Add a comment</a></div></div>`;
    const html = page(
      '<html itemscope itemtype="https://schema.org/QAPage">',
      `<h1>Why does the kettle hum?</h1>${post("Question", "My kettle hums loudly for a minute before it boils, and the noise stops once the water is hot.", 7)}<h2>2 Answers</h2>${post("Answer", "The hum is small bubbles of steam collapsing on the element as the cold water around them cools them down.", 12)}${post("Answer", "Scale on the element makes it louder; descaling with citric acid every month keeps it quiet for longer.", 3)}`,
    );
    const { markdown } = extractMainContent(html, "https://qa.example/q/1");
    expect(markdown).toBe(
      [
        "My kettle hums loudly for a minute before it boils, and the noise stops once the water is hot.",
        "## 2 Answers",
        "The hum is small bubbles of steam collapsing on the element as the cold water around them cools them down.",
        "Scale on the element makes it louder; descaling with citric acid every month keeps it quiet for longer.",
      ].join("\n\n"),
    );
  });

  it("drops the label/value user panel repeated in every post, keeping the posts", () => {
    const post = (n: number, text: string) =>
      `<article class="post"><div class="poster"><a href="/u/${n}">member${n}</a><dl class="profile"><dt>Posts</dt><dd>${n * 120}</dd><dt>Joined</dt><dd>March 20${10 + n}</dd><dt>Location</dt><dd>Leeds</dd></dl></div><div class="content"><p>${text}</p></div></article>`;
    const html = page(
      '<html><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Kettle hum"}</script>',
      `<h1>Kettle hum</h1>${post(1, "Mine hums too, mostly in the first minute after switching it on with cold water.")}${post(2, "Descaling fixed it for me; the element was covered in a white crust of limescale.")}${post(3, "A new kettle with a concealed element is much quieter than the old coil ones were.")}`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/2");
    expect(markdown).toContain(
      "Descaling fixed it for me; the element was covered in a white crust of limescale.",
    );
    expect(markdown).toContain("member2");
    for (const panel of ["Joined", "Location", "Leeds", "240"]) expect(markdown).not.toContain(panel);
  });

  it("drops each poster's title and banner and the quote's expand link, keeping the poster's name and the post", () => {
    const post = (n: number, text: string) =>
      `<article class="message"><div class="message-user"><a href="/u/${n}">member${n}</a><h5 class="userTitle">Senior Member</h5><div class="userBanner">10+ Year Member</div></div><div class="message-body"><blockquote><p>Earlier post quoted by member${n}.</p><div class="bbCodeBlock-expandLink">Click to expand</div></blockquote><p>${text}</p></div></article>`;
    const html = page(
      '<html><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Kettle hum"}</script>',
      `<h1>Kettle hum</h1>${post(1, "Mine hums too, mostly in the first minute after switching it on with cold water.")}${post(2, "Descaling fixed it for me; the element was covered in a white crust of limescale.")}`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/3");
    expect(markdown).toContain(
      "Descaling fixed it for me; the element was covered in a white crust of limescale.",
    );
    expect(markdown).toContain("member2");
    expect(markdown).toContain("> Earlier post quoted by member2.");
    for (const chrome of ["Senior Member", "Year Member", "Click to expand"])
      expect(markdown).not.toContain(chrome);
  });
  it("reads a question and its one answer as a thread: the region holding both wins over an article of the question alone", () => {
    const para = (n: number) =>
      `<p>Step ${n}: I join the loop devices in linear mode with the script, then check the mapping table again to see whether device ${n} was added in the right order.</p>`;
    const question = `<div id="question" class="question" itemprop="mainEntity" itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">Join a number of devices in linear mode</h1><div class="postcell"><div class="s-prose" itemprop="text">${[1, 2, 3, 4, 5, 6].map(para).join("")}<pre><code>dmsetup create one &lt; table\nlosetup -a</code></pre><p>How do I pass the number of devices to the script?</p></div></div></div>`;
    const answer = `<div id="answers"><div id="answers-header"><h2>1 Answer</h2></div><div class="answer js-answer accepted-answer" itemprop="acceptedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="votecell"><button>Up vote</button><span>1</span></div><div class="answercell"><div class="s-prose" itemprop="text"><p>Use a for loop to count from zero to the number of devices and keep their names in an array.</p></div></div></div></div>`;
    const html = page(
      '<html itemscope itemtype="https://schema.org/QAPage">',
      `<div id="mainbar">${question}${answer}</div>`,
    );
    const { markdown } = extractMainContent(html, "https://qa.example/q/2");
    expect(markdown).toContain("How do I pass the number of devices");
    expect(markdown).toContain("Use a for loop to count from zero");
  });
});
