from lhtb.cli.app import main

main()
