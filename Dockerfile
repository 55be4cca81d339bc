# One image for the API, the worker and migrations (see docker-compose.yml).
FROM python:3.11-slim
WORKDIR /srv/sibyl
COPY pyproject.toml README.md alembic.ini ./
COPY app app
COPY schema schema
COPY workers workers
COPY clients clients
COPY migrations migrations
RUN pip install --no-cache-dir . && python -m app.web.assets install
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["uvicorn", "schema.asgi:app", "--host", "0.0.0.0", "--port", "8000", "--ws-per-message-deflate", "false", "--http", "schema.uvicorn_http:SibylHttpProtocol"]
