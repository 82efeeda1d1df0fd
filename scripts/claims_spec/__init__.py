"""claims_spec - the headline claims of the five seed papers, one module per paper.

Each module has PAPER (the file name under results/claims/) and CLAIMS, a list of
core.Claim: the paper's number (typed from /work/shared/reference/<paper>.md, with where
it is), the tolerance, the results CSVs, and the function that computes collsim's number.
scripts/claims.py turns them into results/claims/<paper>.csv and the README tables.
alltoallv_endpoint.py and kautz_2dfc_endpoint.py hold the same claims with endpoint costs
on (issue 24), appended to their paper's CLAIMS; scripts/endpoint_switch.py shows each of
them with the costs off and on.
"""
