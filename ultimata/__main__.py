from ultimata.cli import app

app()
