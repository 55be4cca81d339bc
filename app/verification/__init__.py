"""The domain of the central question, "is this claim true?".

Its first part is the contract between the investigators and the judge (`contract`): typed
records of what each finding says, written and read as the stored `details` of today.
"""
