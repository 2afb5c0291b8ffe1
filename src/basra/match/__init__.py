"""A whole match: the driver (the one loop every match is played through), match records
(basra-record/1), replaying and verifying them, the step-by-step replay and the expert's
analysis. Imports the game and the bots, nothing above them.
"""
