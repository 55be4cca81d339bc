"""What the API process serves to browsers besides GraphQL: the dashboard's static files, report
page images, and a GraphiQL page whose assets come from this server, not a CDN."""
