# gh-host.sh (sourced by the steps that run gh): gh speaks to the server the workflow runs
# on: github.com, or a GitHub Enterprise Server named by GITHUB_SERVER_URL (gh reads the
# host from GH_HOST, which the runner does not set).
ev2hp_server=${GITHUB_SERVER_URL:-https://github.com}
ev2hp_server=${ev2hp_server#*://}
if [ "$ev2hp_server" != github.com ] && [ -z "${GH_HOST:-}" ]; then
    GH_HOST=$ev2hp_server
    export GH_HOST
fi
