// Sibyl's GraphiQL: React, GraphiQL and the explorer plugin come from this server (see
// app/web/assets.py), and the API key the dashboard signed in with is already in the headers.
(function () {
  "use strict";

  const KEY_STORAGE = "sibyl.apiKey"; // set by the dashboard (clients/web) for this browser session
  const DEFAULT_QUERY = `# Ctrl-Enter runs the query; the Explorer (left) builds one.
query Reports {
  reports(first: 10) {
    totalCount
    edges { node { id filename companyName status pageCount } }
  }
}
`;

  const endpoint = new URL("/graphql", window.location.href);
  const socket = new URL(endpoint.href);
  socket.protocol = endpoint.protocol === "https:" ? "wss:" : "ws:";

  const key = window.sessionStorage.getItem(KEY_STORAGE);
  const auth = key ? { Authorization: `Bearer ${key}` } : {};
  const headers = JSON.stringify(auth, null, 2);

  const fetcher = GraphiQL.createFetcher({
    url: endpoint.href,
    subscriptionUrl: socket.href,
    wsConnectionParams: auth,
  });

  ReactDOM.createRoot(document.getElementById("graphiql")).render(
    React.createElement(GraphiQL, {
      fetcher,
      plugins: [GraphiQLPluginExplorer.explorerPlugin()],
      defaultQuery: DEFAULT_QUERY,
      defaultHeaders: headers,
      headers,
      defaultEditorToolsVisibility: key ? "headers" : true,
      shouldPersistHeaders: false,
    }),
  );
})();
